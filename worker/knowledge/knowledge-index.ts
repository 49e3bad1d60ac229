/**
 * Where one assistant's knowledge file records, chunks and their FTS5 index live: the
 * assistant's own Durable Object (AssistantHub SQLite). Ingest, search and the vector store
 * reach it through this interface: `hubKnowledgeIndex` (worker/assistant/hub-knowledge-index.ts)
 * from the worker, one RPC a call (chunks go in batches), and the hub's own store
 * (worker/assistant/knowledge-store.ts) next to the index, with no RPC at all.
 */

export type KnowledgeFileStatus = "processing" | "ready" | "failed";
/** "file": uploaded (or a web page's record); "text": a snippet typed in the dashboard, editable in place. */
export type KnowledgeFileKind = "file" | "text";

export interface KnowledgeFileRecord {
  id: string;
  name: string;
  size: number;
  mimeType: string;
  r2Key: string;
  status: KnowledgeFileStatus;
  error: string | null;
  chunkCount: number;
  uploadedAt: number;
  /** Absent: "file" (records written before snippets existed read as files). */
  kind?: KnowledgeFileKind;
}

/** What a re-index may change on the record in the same step as its chunks (a snippet's title, size and text). */
export interface KnowledgeFileChanges {
  name: string;
  size: number;
  r2Key: string;
}

/** A chunk as search returns it (from ready files only). */
export interface IndexedChunk {
  chunkId: number;
  fileId: string;
  fileName: string;
  heading: string;
  content: string;
  ordinal: number;
  score: number;
  /** A web page's address (website sources); absent for uploaded files. */
  url?: string;
}

/** [ordinal, heading, content, tokenCount]: a chunk as ingest writes it. */
export type ChunkInsert = [number, string, string, number];

export interface KnowledgeIndex {
  file(fileId: string): Promise<KnowledgeFileRecord | null>;
  /** Appends chunks to a file (ids ascend with the order given). */
  insertChunks(fileId: string, rows: ChunkInsert[], createdAt: number): Promise<void>;
  /**
   * In one transaction: the file's chunks replaced by `rows` (ids ascend with the order given),
   * `changes` applied to its record, and the record marked ready with their count. A search sees
   * the old passages or the new, never both nor neither. Null when the file is gone (nothing
   * written); else the record's r2Key before the change.
   */
  replaceChunks(fileId: string, rows: ChunkInsert[], createdAt: number, changes?: KnowledgeFileChanges): Promise<{ previousR2Key: string } | null>;
  /** Marks the file ready with its chunk count; false when the file is gone. */
  markReady(fileId: string, chunkCount: number): Promise<boolean>;
  markFailed(fileId: string, error: string): Promise<void>;
  /** Chunk ids of a file, or of every file with `null`. */
  chunkIds(fileId: string | null): Promise<number[]>;
  /**
   * The greatest chunk id moved from the legacy D1 table (0: none): only those chunks can have a
   * Vectorize vector under the bare id (chunk ids restart at 1 in every assistant's own object).
   */
  legacyChunkIdMax(): Promise<number>;
  /** Deletes the chunks (and their FTS rows) of a file, or of every file with `null`. */
  deleteChunks(fileId: string | null): Promise<number>;
  /** A file's chunks after `after` by id, `limit` at most (embedding). */
  chunkPage(fileId: string, after: number, limit: number): Promise<{ id: number; heading: string; content: string }[]>;
  /** BM25 over ready files' chunks for an FTS5 MATCH expression (toFtsQuery), best first. */
  lexical(match: string, k: number): Promise<IndexedChunk[]>;
  /** Chunks by id, ready files only. */
  chunks(ids: number[]): Promise<IndexedChunk[]>;
  /** Local vectors (no Vectorize): Float32 LE blobs on the chunks. */
  setEmbeddings(records: { chunkId: number; vector: number[] }[]): Promise<void>;
  clearEmbeddings(fileId: string | null): Promise<void>;
  nearest(vector: number[], k: number): Promise<{ chunkId: number; score: number }[]>;
}
