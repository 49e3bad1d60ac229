import type { ChunkInsert, IndexedChunk, KnowledgeFileChanges, KnowledgeFileRecord, KnowledgeFileStatus } from "../knowledge/knowledge-index";
import { blobToVector, cosine, vectorToBlob } from "../knowledge/vectors";

/**
 * An assistant's knowledge file records, chunks, FTS5 index and local vectors, in its own
 * Durable Object's SQLite (the tables of storage migration 0002, as D1 had them). Synchronous:
 * the hub wraps it for RPC (and hands it to search as a `KnowledgeIndex`). No import from
 * `cloudflare:workers`.
 */

type Row = Record<string, SqlStorageValue>;
type Host = Pick<DurableObjectStorage, "sql" | "transactionSync">;

const hitColumns = `c.id AS chunkId, c.file_id AS fileId, f.name AS fileName, f.url AS url, c.heading AS heading, c.content AS content, c.ordinal AS ordinal`;

const toHit = (r: Row): IndexedChunk => ({
  chunkId: Number(r.chunkId),
  fileId: String(r.fileId),
  fileName: String(r.fileName),
  heading: String(r.heading ?? ""),
  content: String(r.content),
  ordinal: Number(r.ordinal),
  score: Number(r.score ?? 0),
  ...(r.url ? { url: String(r.url) } : {}),
});

export const toFileRecord = (r: Row): KnowledgeFileRecord => ({
  id: String(r.id),
  name: String(r.name),
  size: Number(r.size),
  mimeType: String(r.mime_type),
  r2Key: String(r.r2_key),
  status: String(r.status) as KnowledgeFileStatus,
  error: r.error === null || r.error === undefined ? null : String(r.error),
  chunkCount: Number(r.chunk_count),
  uploadedAt: Number(r.uploaded_at),
  kind: r.kind === "text" ? "text" : "file",
});

/** Vectors read per page by `nearest` (~4 KB each at 1024 dimensions). */
const VECTOR_PAGE = 500;

export class KnowledgeStore {
  constructor(private readonly storage: Host) {}

  private get sql() {
    return this.storage.sql;
  }

  /** The uploaded files, newest first (web pages are listed with their source: web-source-store.ts). */
  files(): KnowledgeFileRecord[] {
    return this.sql.exec("SELECT * FROM knowledge_files WHERE source_id IS NULL ORDER BY uploaded_at DESC, id DESC").toArray().map(toFileRecord);
  }

  file(fileId: string): KnowledgeFileRecord | null {
    const [r] = this.sql.exec("SELECT * FROM knowledge_files WHERE id = ?", fileId).toArray();
    return r ? toFileRecord(r) : null;
  }

  /** Adds a file record (status processing); false when a file with this id exists already. */
  addFile(file: Omit<KnowledgeFileRecord, "status" | "error" | "chunkCount">): boolean {
    const cursor = this.sql.exec(
      "INSERT OR IGNORE INTO knowledge_files (id, name, size, mime_type, r2_key, status, uploaded_at, kind) VALUES (?, ?, ?, ?, ?, 'processing', ?, ?)",
      file.id,
      file.name,
      file.size,
      file.mimeType,
      file.r2Key,
      file.uploadedAt,
      file.kind ?? "file",
    );
    return cursor.rowsWritten > 0;
  }

  /** Removes a file record and its chunks (the caller removed vectors and the R2 object). */
  removeFile(fileId: string) {
    this.storage.transactionSync(() => {
      this.sql.exec("DELETE FROM knowledge_chunks WHERE file_id = ?", fileId);
      this.sql.exec("DELETE FROM knowledge_files WHERE id = ?", fileId);
    });
  }

  insertChunks(fileId: string, rows: ChunkInsert[], createdAt: number) {
    this.storage.transactionSync(() => this.#insert(fileId, rows, createdAt));
  }

  /** Chunks swapped, record changed and marked ready in one transaction (see KnowledgeIndex.replaceChunks). */
  replaceChunks(fileId: string, rows: ChunkInsert[], createdAt: number, changes?: KnowledgeFileChanges): { previousR2Key: string } | null {
    return this.storage.transactionSync(() => {
      const [row] = this.sql.exec("SELECT r2_key FROM knowledge_files WHERE id = ?", fileId).toArray();
      if (!row) return null;
      this.sql.exec("DELETE FROM knowledge_chunks WHERE file_id = ?", fileId);
      this.#insert(fileId, rows, createdAt);
      if (changes) this.sql.exec("UPDATE knowledge_files SET name = ?, size = ?, r2_key = ? WHERE id = ?", changes.name, changes.size, changes.r2Key, fileId);
      this.sql.exec("UPDATE knowledge_files SET status = 'ready', error = NULL, chunk_count = ? WHERE id = ?", rows.length, fileId);
      return { previousR2Key: String(row.r2_key) };
    });
  }

  #insert(fileId: string, rows: ChunkInsert[], createdAt: number) {
    for (const [ordinal, heading, content, tokenCount] of rows) {
      this.sql.exec(
        "INSERT INTO knowledge_chunks (file_id, ordinal, heading, content, token_count, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        fileId,
        ordinal,
        heading,
        content,
        tokenCount,
        createdAt,
      );
    }
  }

  markReady(fileId: string, chunkCount: number): boolean {
    return this.sql.exec("UPDATE knowledge_files SET status = 'ready', error = NULL, chunk_count = ? WHERE id = ?", chunkCount, fileId).rowsWritten > 0;
  }

  markFailed(fileId: string, error: string) {
    this.sql.exec("UPDATE knowledge_files SET status = 'failed', error = ?, chunk_count = 0 WHERE id = ?", error, fileId);
  }

  chunkIds(fileId: string | null): number[] {
    const rows = fileId === null ? this.sql.exec("SELECT id FROM knowledge_chunks ORDER BY id") : this.sql.exec("SELECT id FROM knowledge_chunks WHERE file_id = ? ORDER BY id", fileId);
    return rows.toArray().map((r) => Number(r.id));
  }

  /** The greatest chunk id the legacy move brought from D1 (meta `legacy_max_chunk_id`, legacy-import.ts); 0 when none. */
  legacyChunkIdMax(): number {
    const [row] = this.sql.exec("SELECT value FROM meta WHERE key = 'legacy_max_chunk_id'").toArray();
    return row ? Number(row.value) : 0;
  }

  deleteChunks(fileId: string | null): number {
    const cursor = fileId === null ? this.sql.exec("DELETE FROM knowledge_chunks") : this.sql.exec("DELETE FROM knowledge_chunks WHERE file_id = ?", fileId);
    return cursor.rowsWritten;
  }

  chunkPage(fileId: string, after: number, limit: number) {
    return this.sql
      .exec("SELECT id, heading, content FROM knowledge_chunks WHERE file_id = ? AND id > ? ORDER BY id LIMIT ?", fileId, after, limit)
      .toArray()
      .map((r) => ({ id: Number(r.id), heading: String(r.heading ?? ""), content: String(r.content) }));
  }

  /** BM25 (headings weigh twice the body) over ready files, as knowledge/search.ts did in D1. */
  lexical(match: string, k: number): IndexedChunk[] {
    if (!match) return [];
    return this.sql
      .exec(
        `SELECT ${hitColumns}, -bm25(knowledge_chunks_fts, 2.0, 1.0) AS score
         FROM knowledge_chunks_fts
         JOIN knowledge_chunks c ON c.id = knowledge_chunks_fts.rowid
         JOIN knowledge_files f ON f.id = c.file_id
         WHERE knowledge_chunks_fts MATCH ? AND f.status = 'ready'
         ORDER BY bm25(knowledge_chunks_fts, 2.0, 1.0), c.id
         LIMIT ?`,
        match,
        Math.max(1, Math.floor(k)),
      )
      .toArray()
      .map(toHit);
  }

  chunks(ids: number[]): IndexedChunk[] {
    if (!ids.length) return [];
    return this.sql
      .exec(
        `SELECT ${hitColumns}, 0 AS score FROM knowledge_chunks c JOIN knowledge_files f ON f.id = c.file_id
         WHERE f.status = 'ready' AND c.id IN (SELECT value FROM json_each(?))`,
        JSON.stringify(ids),
      )
      .toArray()
      .map(toHit);
  }

  setEmbeddings(records: { chunkId: number; vector: number[] }[]) {
    this.storage.transactionSync(() => {
      for (const r of records) this.sql.exec("UPDATE knowledge_chunks SET embedding = ? WHERE id = ?", vectorToBlob(Float32Array.from(r.vector)), r.chunkId);
    });
  }

  clearEmbeddings(fileId: string | null) {
    if (fileId === null) this.sql.exec("UPDATE knowledge_chunks SET embedding = NULL");
    else this.sql.exec("UPDATE knowledge_chunks SET embedding = NULL WHERE file_id = ?", fileId);
  }

  /** Brute-force cosine over ready files' vectors (local mode only: production uses Vectorize). */
  nearest(vector: number[], k: number): { chunkId: number; score: number }[] {
    const query = Float32Array.from(vector);
    const top: { chunkId: number; score: number }[] = [];
    const keep = Math.max(1, k);
    let after = -1;
    for (;;) {
      const rows = this.sql
        .exec(
          `SELECT c.id AS id, c.embedding AS embedding FROM knowledge_chunks c JOIN knowledge_files f ON f.id = c.file_id
           WHERE c.embedding IS NOT NULL AND f.status = 'ready' AND c.id > ? ORDER BY c.id LIMIT ?`,
          after,
          VECTOR_PAGE,
        )
        .toArray();
      for (const row of rows) {
        const stored = blobToVector(row.embedding);
        if (!stored || stored.length !== query.length) continue;
        const score = cosine(query, stored);
        if (top.length === keep && score <= top[top.length - 1]!.score) continue;
        let i = top.length;
        while (i > 0 && top[i - 1]!.score < score) i--;
        top.splice(i, 0, { chunkId: Number(row.id), score });
        if (top.length > keep) top.pop();
      }
      if (rows.length < VECTOR_PAGE) return top;
      after = Number(rows[rows.length - 1]!.id);
    }
  }
}
