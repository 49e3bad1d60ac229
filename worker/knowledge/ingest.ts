import { knowledgeMessages } from "../../contract";
import { chunkBlocks, drainBlocks, type Chunk } from "./chunk";
import type { EmbeddingProvider } from "./embeddings";
import { KnowledgeError } from "./errors";
import { extractFile } from "./extract";
import { displayName, sniffFile, type SniffedFile } from "./sniff";
import type { KnowledgeKind } from "./types";
import type { VectorStore } from "./vectors";

export interface IngestInput {
  db: D1Database;
  /** Read from when `bytes` is not given (a queue consumer): the object at knowledge_files.r2_key. */
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
      kind: KnowledgeKind;
      chunkCount: number;
      /** A limit cut the text short: `warning` says so in the owner's words. */
      truncated: boolean;
      warning?: string;
      /** False when no embedder was given or embedding failed (then `embeddingError` says why; lexical search still works). */
      embedded: boolean;
      embeddingError?: string;
    }
  | { ok: false; fileId: string; error: KnowledgeError };

/** Rows per INSERT … SELECT FROM json_each(?) statement, and statements per D1 batch. */
const ROWS_PER_STATEMENT = 100;
const STATEMENTS_PER_BATCH = 10;
/** One bound JSON parameter stays well under D1's 2 MB value limit. */
const MAX_JSON_BYTES = 900_000;

/**
 * Processes one uploaded knowledge file: sniff → extract → chunk → store the chunks (the FTS5
 * triggers index them) → mark the knowledge_files row ready with its chunk count. Any failure
 * marks the row failed with the owner-facing reason and removes every chunk (and vector) already
 * written for it, so nothing half-written is searchable or left behind. Never throws for a bad
 * file: the result says what happened. Re-ingesting a file replaces its chunks.
 */
export async function ingestFile(input: IngestInput): Promise<IngestResult> {
  const { db, assistantId, fileId } = input;
  const name = displayName(input.name);
  const now = input.now ?? Date.now;
  try {
    const bytes = input.bytes ?? (await readStoredFile(input, name));
    const sniffed = sniffFile({ name, bytes });
    const { chunks, truncated } = await extractChunks(sniffed, bytes);
    if (chunks.length === 0) throw new KnowledgeError("no_text", knowledgeMessages.empty(name));

    await db.prepare("DELETE FROM knowledge_chunks WHERE file_id = ?1 AND assistant_id = ?2").bind(fileId, assistantId).run();
    await insertChunks(db, assistantId, fileId, chunks, now());
    const marked = await db
      .prepare("UPDATE knowledge_files SET status = 'ready', error = NULL, chunk_count = ?1 WHERE id = ?2 AND assistant_id = ?3")
      .bind(chunks.length, fileId, assistantId)
      .run();
    // The row vanished while we worked (the owner deleted the file): leave nothing behind.
    if (!marked.meta.changes) throw new KnowledgeError("missing", knowledgeMessages.missing(name));

    let embedded = false;
    let embeddingError: string | undefined;
    if (input.embedder && input.vectors) {
      try {
        await embedFileChunks({ db, assistantId, fileId, embedder: input.embedder, vectors: input.vectors });
        embedded = true;
      } catch (error) {
        embeddingError = error instanceof Error ? error.message : String(error);
      }
    }
    return {
      ok: true,
      fileId,
      kind: sniffed.kind,
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
    await deleteFileKnowledge({ db, assistantId, fileId, vectors: input.vectors }).catch(() => undefined);
    await db
      .prepare("UPDATE knowledge_files SET status = 'failed', error = ?1, chunk_count = 0 WHERE id = ?2 AND assistant_id = ?3")
      .bind(error.message, fileId, assistantId)
      .run();
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
  const row = await input.db
    .prepare("SELECT r2_key AS r2Key FROM knowledge_files WHERE id = ?1 AND assistant_id = ?2")
    .bind(input.fileId, input.assistantId)
    .first<{ r2Key: string }>();
  const object = row ? await input.files.get(row.r2Key) : null;
  if (!object) throw new KnowledgeError("missing", knowledgeMessages.missing(name));
  return new Uint8Array(await object.arrayBuffer());
}

/**
 * Inserts chunks with few statements: each binds a JSON array of rows read back by json_each,
 * in order, so ids ascend with ordinals. Statements are built and sent a batch at a time, so
 * the JSON of a 10,000-chunk file never exists all at once.
 */
async function insertChunks(db: D1Database, assistantId: string, fileId: string, chunks: Chunk[], createdAt: number) {
  const insert = db.prepare(
    `INSERT INTO knowledge_chunks (file_id, assistant_id, ordinal, heading, content, token_count, created_at)
     SELECT ?1, ?2, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'), ?3
     FROM json_each(?4) ORDER BY key`,
  );
  let statements: D1PreparedStatement[] = [];
  let rows: [number, string, string, number][] = [];
  let bytes = 0;
  const flushRows = () => {
    if (rows.length) statements.push(insert.bind(fileId, assistantId, createdAt, JSON.stringify(rows)));
    rows = [];
    bytes = 0;
  };
  const flushStatements = async () => {
    if (statements.length) await db.batch(statements);
    statements = [];
  };
  for (const chunk of chunks) {
    const size = (chunk.content.length + chunk.heading.length) * 3 + 32;
    if (rows.length >= ROWS_PER_STATEMENT || bytes + size > MAX_JSON_BYTES) flushRows();
    if (statements.length >= STATEMENTS_PER_BATCH) await flushStatements();
    rows.push([chunk.ordinal, chunk.heading, chunk.content, chunk.tokenCount]);
    bytes += size;
  }
  flushRows();
  await flushStatements();
}

export interface EmbedFileChunksInput {
  db: D1Database;
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
  const { db, assistantId, fileId, embedder, vectors } = input;
  const batchSize = Math.max(1, input.batchSize ?? 64);
  let after = -1;
  let total = 0;
  for (;;) {
    const { results } = await db
      .prepare(
        `SELECT id, heading, content FROM knowledge_chunks WHERE file_id = ?1 AND assistant_id = ?2 AND id > ?3 ORDER BY id LIMIT ?4`,
      )
      .bind(fileId, assistantId, after, batchSize)
      .all<{ id: number; heading: string; content: string }>();
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
 * knowledge_files row: the row's cascade would remove the chunks but not Vectorize's vectors.
 */
export async function deleteFileKnowledge(input: {
  db: D1Database;
  assistantId: string;
  fileId: string;
  vectors?: VectorStore | null;
}): Promise<DeleteKnowledgeResult> {
  const { db, assistantId, fileId } = input;
  const ids = await chunkIds(db.prepare("SELECT id FROM knowledge_chunks WHERE file_id = ?1 AND assistant_id = ?2").bind(fileId, assistantId));
  // Vectors first: their ids come from the chunks, so a failure keeps the chunks for a retry.
  const vectors = await deleteVectors(() => input.vectors?.deleteByFile(assistantId, fileId, ids));
  if (vectors.vectorError) return { chunks: 0, ...vectors };
  await db.prepare("DELETE FROM knowledge_chunks WHERE file_id = ?1 AND assistant_id = ?2").bind(fileId, assistantId).run();
  return { chunks: ids.length };
}

/**
 * Removes every vector, then every chunk, of an assistant (before deleting the assistant). When the
 * vector store fails, nothing is deleted and `vectorError` says why: the caller stops, and a retry
 * still finds the chunk ids the vectors are deleted by (nothing orphaned in Vectorize).
 */
export async function deleteAssistantKnowledge(input: {
  db: D1Database;
  assistantId: string;
  vectors?: VectorStore | null;
}): Promise<DeleteKnowledgeResult> {
  const { db, assistantId } = input;
  const ids = await chunkIds(db.prepare("SELECT id FROM knowledge_chunks WHERE assistant_id = ?1").bind(assistantId));
  const vectors = await deleteVectors(() => input.vectors?.deleteByAssistant(assistantId, ids));
  if (vectors.vectorError) return { chunks: 0, ...vectors };
  await db.prepare("DELETE FROM knowledge_chunks WHERE assistant_id = ?1").bind(assistantId).run();
  return { chunks: ids.length };
}

async function chunkIds(statement: D1PreparedStatement): Promise<number[]> {
  const { results } = await statement.all<{ id: number }>();
  return results.map((r) => r.id);
}

async function deleteVectors(run: () => Promise<void> | undefined): Promise<{ vectorError?: string }> {
  try {
    await run();
    return {};
  } catch (error) {
    return { vectorError: error instanceof Error ? error.message : String(error) };
  }
}
