import { knowledgeMessages } from "../../contract";
import { chunkBlocks, drainBlocks, type Chunk } from "./chunk";
import { KnowledgeError } from "./errors";
import { BlockCollector } from "./extract/collector";
import { ExtractGuard } from "./extract/guard";
import { extractMarkdown } from "./extract/text";
import { chunkCalls, ingestWith, type IngestInput, type IngestResult } from "./ingest";
import type { KnowledgeFileChanges, KnowledgeIndex } from "./knowledge-index";
import type { VectorStore } from "./vectors";

/** The type a snippet's text is stored and served under: Markdown, which the owner may write. */
export const knowledgeTextMimeType = "text/markdown";

/**
 * A snippet's passages: its content read as Markdown (the reader of an uploaded .md, with its caps)
 * under its title as the outermost heading, so every passage carries the title in its heading path
 * (level 0: a "# heading" of the content nests under the title rather than replacing it).
 */
export function textChunks(title: string, content: string): { chunks: Chunk[]; truncated: boolean } {
  const document = extractMarkdown(content, new BlockCollector(undefined, new ExtractGuard(title)));
  const { chunks, truncated } = chunkBlocks(drainBlocks([{ kind: "heading", level: 0, text: title }, ...document.blocks]));
  return { chunks, truncated: truncated || document.truncated };
}

export type IngestTextInput = Omit<IngestInput, "files" | "bytes" | "name"> & { title: string; content: string };

/**
 * Indexes a new snippet under its file record (processing), exactly as an uploaded file is
 * indexed (`ingestWith`): chunks stored, the record ready with its count, or failed with nothing
 * left behind. Never throws for bad content: the result says what happened.
 */
export function ingestText(input: IngestTextInput): Promise<IngestResult> {
  return ingestWith({ ...input, name: input.title }, input.title, async () => ({ kind: "text" as const, ...textChunks(input.title, input.content) }));
}

export type ReindexTextResult =
  | { ok: true; chunkCount: number; previousR2Key: string }
  /** The record is gone (deleted meanwhile): nothing was written. */
  | { ok: false; reason: "missing" }
  /** The vector store did not answer: nothing was changed, the old text still answers. */
  | { ok: false; reason: "vectors"; error: string };

/**
 * Indexes an edited snippet again. Its old vectors go first (a vector hit is re-checked against
 * the chunks, and chunk ids are never reused, so none could answer for the new text), then ONE
 * call swaps the chunks and the record's title, size and R2 key in one transaction: a search sees
 * the old text or the new, never both nor neither. A snippet's content (≤ the contract's limit)
 * always fits one call. Throws `KnowledgeError` for content with no text before touching anything,
 * so a failed edit leaves the snippet as it was; the new chunks are embedded by the caller's queue.
 */
export async function reindexText(input: {
  index: KnowledgeIndex;
  assistantId: string;
  fileId: string;
  title: string;
  content: string;
  changes: KnowledgeFileChanges;
  vectors?: VectorStore | null;
  now?: () => number;
}): Promise<ReindexTextResult> {
  const { index, assistantId, fileId, title } = input;
  const { chunks } = textChunks(title, input.content);
  if (chunks.length === 0) throw new KnowledgeError("no_text", knowledgeMessages.empty(title));
  const calls = chunkCalls(chunks);
  if (calls.length !== 1) throw new KnowledgeError("too_complex", knowledgeMessages.processingFailed(title));

  if (input.vectors) {
    try {
      const ids = await index.chunkIds(fileId);
      await input.vectors.deleteByFile(assistantId, fileId, ids, await index.legacyChunkIdMax());
    } catch (error) {
      return { ok: false, reason: "vectors", error: error instanceof Error ? error.message : String(error) };
    }
  }
  const replaced = await index.replaceChunks(fileId, calls[0]!, (input.now ?? Date.now)(), input.changes);
  return replaced ? { ok: true, chunkCount: chunks.length, previousR2Key: replaced.previousR2Key } : { ok: false, reason: "missing" };
}
