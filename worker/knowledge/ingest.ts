import { knowledgeMessages } from "../../contract";
import { chunkBlocks, drainBlocks, type Chunk } from "./chunk";
import type { EmbeddingProvider } from "./embeddings";
import { KnowledgeError } from "./errors";
import { extractFile } from "./extract";
import type { ChunkInsert, KnowledgeIndex } from "./knowledge-index";
import { displayName, sniffFile, type SniffedFile } from "./sniff";
import type { Block, KnowledgeKind } from "./types";
import type { VectorStore } from "./vectors";

export interface IngestInput {
  /** The assistant's index: its own Durable Object (file record, chunks, FTS5). */
  index: KnowledgeIndex;
  /** Read from when `bytes` is not given (a queue consumer): the object at the file record's r2Key. */
  files: R2Bucket;
  assistantId: string;
  fileId: string;
  name: string;
  bytes?: Uint8Array;
  /** When both are given, the chunks are embedded right after they are stored. */
  embedder?: EmbeddingProvider | null;
  vectors?: VectorStore | null;
  now?: () => number;
}

export type IngestResult =
  | {
      ok: true;
      fileId: string;
      /** "web": a page of a website source (`ingestBlocks`); "text": a snippet (`ingestText`). */
      kind: KnowledgeKind | "web" | "text";
      chunkCount: number;
      /** A limit cut the text short: `warning` says so in the owner's words. */
      truncated: boolean;
      warning?: string;
      /** False when no embedder was given or embedding failed (then `embeddingError` says why; lexical search still works). */
      embedded: boolean;
      embeddingError?: string;
    }
  | { ok: false; fileId: string; error: KnowledgeError };

/** Chunks per call to the assistant's object: at most this many rows and about this many bytes. */
const ROWS_PER_CALL = 500;
const MAX_CALL_BYTES = 1_000_000;

/**
 * Processes one uploaded knowledge file: sniff → extract → chunk → store the chunks in the
 * assistant's own object, in batched calls (its FTS5 triggers index them) → mark the file record
 * ready with its chunk count. Any failure
 * marks the row failed with the owner-facing reason and removes every chunk (and vector) already
 * written for it, so nothing half-written is searchable or left behind. Never throws for a bad
 * file: the result says what happened. Re-ingesting a file replaces its chunks.
 */
export async function ingestFile(input: IngestInput): Promise<IngestResult> {
  const name = displayName(input.name);
  return ingestWith(input, name, async () => {
    const bytes = input.bytes ?? (await readStoredFile(input, name));
    const sniffed = sniffFile({ name, bytes });
    return { kind: sniffed.kind, ...(await extractChunks(sniffed, bytes)) };
  });
}

export type IngestBlocksInput = Omit<IngestInput, "files" | "bytes"> & { blocks: Block[]; truncated?: boolean };

/**
 * Indexes text already read into blocks (a web page: knowledge/web/html.ts) under an existing
 * file record, with the same guarantees as `ingestFile`: chunks in batched calls, the record ready
 * with its count, or failed with nothing left behind. `kind` of the result is "web".
 */
export async function ingestBlocks(input: IngestBlocksInput): Promise<IngestResult> {
  return ingestWith(input, input.name, async () => {
    const { chunks, truncated } = chunkBlocks(drainBlocks(input.blocks));
    return { kind: "web" as const, chunks, truncated: truncated || Boolean(input.truncated) };
  });
}

/**
 * The steps after reading: replace the record's chunks, mark it ready, embed; on failure remove it
 * all and mark it failed. Shared by files, web pages and text snippets (ingest-text.ts).
 */
export async function ingestWith(
  input: Omit<IngestInput, "files" | "bytes">,
  name: string,
  read: () => Promise<{ kind: KnowledgeKind | "web" | "text"; chunks: Chunk[]; truncated: boolean }>,
): Promise<IngestResult> {
  const { index, assistantId, fileId } = input;
  const now = input.now ?? Date.now;
  try {
    const { kind, chunks, truncated } = await read();
    if (chunks.length === 0) throw new KnowledgeError("no_text", knowledgeMessages.empty(name));

    const marked = await writeChunks(index, fileId, chunks, now());
    // The record vanished while we worked (the owner deleted the file): leave nothing behind.
    if (!marked) throw new KnowledgeError("missing", knowledgeMessages.missing(name));

    let embedded = false;
    let embeddingError: string | undefined;
    if (input.embedder && input.vectors) {
      try {
        await embedFileChunks({ index, assistantId, fileId, embedder: input.embedder, vectors: input.vectors });
        embedded = true;
      } catch (error) {
        embeddingError = error instanceof Error ? error.message : String(error);
      }
    }
    return {
      ok: true,
      fileId,
      kind,
      chunkCount: chunks.length,
      truncated,
      ...(truncated ? { warning: knowledgeMessages.truncated(name) } : {}),
      embedded,
      ...(embeddingError ? { embeddingError } : {}),
    };
  } catch (thrown) {
    const error =
      thrown instanceof KnowledgeError
        ? thrown
        : new KnowledgeError("internal", knowledgeMessages.processingFailed(name), { cause: thrown });
    await deleteFileKnowledge({ index, assistantId, fileId, vectors: input.vectors }).catch(() => undefined);
    await index.markFailed(fileId, error.message);
    return { ok: false, fileId, error };
  }
}

/**
 * Extraction then chunking, letting go of each stage's input as soon as it is consumed: the decoded
 * text once extracted, each block once chunked. For a 15 MB file that is the difference between
 * holding the text three times (text, blocks, chunks) and about once and a half.
 */
async function extractChunks(sniffed: SniffedFile, bytes: Uint8Array): Promise<{ chunks: Chunk[]; truncated: boolean }> {
  const document = await extractFile(sniffed, bytes);
  sniffed.text = undefined;
  const { chunks, truncated } = chunkBlocks(drainBlocks(document.blocks));
  return { chunks, truncated: truncated || document.truncated };
}

async function readStoredFile(input: IngestInput, name: string): Promise<Uint8Array> {
  const row = await input.index.file(input.fileId);
  const object = row ? await input.files.get(row.r2Key) : null;
  if (!object) throw new KnowledgeError("missing", knowledgeMessages.missing(name));
  return new Uint8Array(await object.arrayBuffer());
}

/**
 * Replaces a file's chunks and marks it ready; false when the record is gone. Chunks that fit one
 * call (ROWS_PER_CALL rows, about MAX_CALL_BYTES) are swapped in one transaction there
 * (`replaceChunks`: a re-indexed file never shows both versions, nor none). More are deleted, then
 * sent in calls of that size (never one call per chunk, never one giant call; ids ascend with
 * ordinals; the rows share the chunks' strings), then the record is marked ready.
 */
async function writeChunks(index: KnowledgeIndex, fileId: string, chunks: Chunk[], createdAt: number): Promise<boolean> {
  const calls = chunkCalls(chunks);
  if (calls.length <= 1) return (await index.replaceChunks(fileId, calls[0] ?? [], createdAt)) !== null;
  await index.deleteChunks(fileId);
  for (const rows of calls) await index.insertChunks(fileId, rows, createdAt);
  return index.markReady(fileId, chunks.length);
}

/** Chunks as rows, grouped into calls of at most ROWS_PER_CALL rows and about MAX_CALL_BYTES. */
export function chunkCalls(chunks: readonly Chunk[]): ChunkInsert[][] {
  const calls: ChunkInsert[][] = [];
  let rows: ChunkInsert[] = [];
  let bytes = 0;
  for (const chunk of chunks) {
    const size = (chunk.content.length + chunk.heading.length) * 3 + 32;
    if (rows.length >= ROWS_PER_CALL || bytes + size > MAX_CALL_BYTES) {
      calls.push(rows);
      rows = [];
      bytes = 0;
    }
    rows.push([chunk.ordinal, chunk.heading, chunk.content, chunk.tokenCount]);
    bytes += size;
  }
  if (rows.length) calls.push(rows);
  return calls;
}

export interface EmbedFileChunksInput {
  index: KnowledgeIndex;
  assistantId: string;
  fileId: string;
  embedder: EmbeddingProvider;
  vectors: VectorStore;
  /** Chunks per embedding call and vector upsert (default 64). */
  batchSize?: number;
}

/**
 * Embeds every chunk of a file (heading path + content) and stores the vectors: the step a queue
 * consumer runs after `ingestFile`, or re-runs after a model change. Throws `EmbeddingError`.
 * Returns the number of chunks embedded.
 */
export async function embedFileChunks(input: EmbedFileChunksInput): Promise<number> {
  const { index, assistantId, fileId, embedder, vectors } = input;
  const batchSize = Math.max(1, input.batchSize ?? 64);
  let after = -1;
  let total = 0;
  for (;;) {
    const results = await index.chunkPage(fileId, after, batchSize);
    if (!results.length) return total;
    const embeddings = await embedder.embed(results.map((r) => (r.heading ? `${r.heading}\n${r.content}` : r.content)));
    await vectors.upsert(
      assistantId,
      results.map((r, i) => ({ chunkId: r.id, fileId, vector: embeddings[i]! })),
    );
    total += results.length;
    after = results[results.length - 1]!.id;
  }
}

export interface DeleteKnowledgeResult {
  chunks: number;
  /** The vector store failed; the chunks are gone all the same (stale vectors are ignored by search). */
  vectorError?: string;
}

/**
 * Removes a file's chunks (and so its FTS entries) and its vectors. Call it before deleting the
 * file record: removing the record would remove the chunks but not Vectorize's vectors.
 */
export async function deleteFileKnowledge(input: {
  index: KnowledgeIndex;
  assistantId: string;
  fileId: string;
  vectors?: VectorStore | null;
}): Promise<DeleteKnowledgeResult> {
  const { index, assistantId, fileId } = input;
  const ids = await index.chunkIds(fileId);
  const legacyUpTo = input.vectors ? await index.legacyChunkIdMax() : 0;
  // Vectors first: their ids come from the chunks, so a failure keeps the chunks for a retry.
  const vectors = await deleteVectors(() => input.vectors?.deleteByFile(assistantId, fileId, ids, legacyUpTo));
  if (vectors.vectorError) return { chunks: 0, ...vectors };
  await index.deleteChunks(fileId);
  return { chunks: ids.length };
}

/**
 * Removes every vector, then every chunk, of an assistant (before deleting the assistant). When the
 * vector store fails, nothing is deleted and `vectorError` says why: the caller stops, and a retry
 * still finds the chunk ids the vectors are deleted by (nothing orphaned in Vectorize).
 */
export async function deleteAssistantKnowledge(input: {
  index: KnowledgeIndex;
  assistantId: string;
  vectors?: VectorStore | null;
}): Promise<DeleteKnowledgeResult> {
  const { index, assistantId } = input;
  const ids = await index.chunkIds(null);
  const legacyUpTo = input.vectors ? await index.legacyChunkIdMax() : 0;
  const vectors = await deleteVectors(() => input.vectors?.deleteByAssistant(assistantId, ids, legacyUpTo));
  if (vectors.vectorError) return { chunks: 0, ...vectors };
  await index.deleteChunks(null);
  return { chunks: ids.length };
}

async function deleteVectors(run: () => Promise<void> | undefined): Promise<{ vectorError?: string }> {
  try {
    await run();
    return {};
  } catch (error) {
    return { vectorError: error instanceof Error ? error.message : String(error) };
  }
}
