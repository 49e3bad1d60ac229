import { runBatches } from "./db";

/**
 * Where chunk vectors live and how the nearest ones are found, per assistant. Three stores:
 * D1 (the `knowledge_chunks.embedding` blob, brute-force cosine: local mode and small
 * knowledge bases), Vectorize (production: a namespace per assistant), and memory (tests).
 * Chunk ids are global integers, so a vector's id is its chunk's id.
 */
export interface VectorRecord {
  chunkId: number;
  fileId: string;
  vector: Float32Array;
}

export interface VectorMatch {
  chunkId: number;
  /** Cosine similarity, higher is closer. */
  score: number;
}

export interface VectorStore {
  upsert(assistantId: string, records: VectorRecord[]): Promise<void>;
  query(assistantId: string, vector: Float32Array, k: number): Promise<VectorMatch[]>;
  /** `chunkIds` are the file's chunks: stores that cannot filter on delete (Vectorize) need them. */
  deleteByFile(assistantId: string, fileId: string, chunkIds: number[]): Promise<void>;
  deleteByAssistant(assistantId: string, chunkIds: number[]): Promise<void>;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return -1;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Keeps the k best matches seen (k is small: a sorted insert beats a heap). */
class TopK {
  readonly items: VectorMatch[] = [];
  constructor(private readonly k: number) {}
  offer(match: VectorMatch) {
    if (this.items.length === this.k && match.score <= this.items[this.items.length - 1]!.score) return;
    let i = this.items.length;
    while (i > 0 && this.items[i - 1]!.score < match.score) i--;
    this.items.splice(i, 0, match);
    if (this.items.length > this.k) this.items.pop();
  }
}

/** Float32 little-endian bytes, as stored in `knowledge_chunks.embedding`. */
export function vectorToBlob(vector: Float32Array): ArrayBuffer {
  const out = new ArrayBuffer(vector.length * 4);
  const view = new DataView(out);
  vector.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return out;
}

/** Reads a stored blob back; D1 hands blobs over as ArrayBuffer, a typed array or a number[]. */
export function blobToVector(blob: unknown): Float32Array | null {
  let bytes: Uint8Array;
  if (blob instanceof ArrayBuffer) bytes = new Uint8Array(blob);
  else if (ArrayBuffer.isView(blob)) bytes = new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength);
  else if (Array.isArray(blob)) bytes = Uint8Array.from(blob as number[]);
  else return null;
  if (bytes.length === 0 || bytes.length % 4) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/**
 * Vectors in D1, searched by brute force: the assistant's embedded chunks are read in pages of
 * `pageSize` rows and scored one by one, keeping the best k. Cost grows with the knowledge base
 * (a 1024-dimension vector is 4 KB, so 5,000 chunks read ~20 MB per query): fine for local mode and
 * small knowledge bases; production uses Vectorize. Vectors of another length (a changed model)
 * are skipped.
 */
export class D1VectorStore implements VectorStore {
  constructor(
    private readonly db: D1Database,
    private readonly pageSize = 500,
  ) {}

  async upsert(assistantId: string, records: VectorRecord[]): Promise<void> {
    const statement = this.db.prepare("UPDATE knowledge_chunks SET embedding = ?1 WHERE id = ?2 AND assistant_id = ?3");
    await runBatches(
      this.db,
      records.map((r) => statement.bind(vectorToBlob(r.vector), r.chunkId, assistantId)),
    );
  }

  async query(assistantId: string, vector: Float32Array, k: number): Promise<VectorMatch[]> {
    const top = new TopK(Math.max(1, k));
    let after = -1;
    for (;;) {
      const { results } = await this.db
        .prepare(
          `SELECT c.id AS id, c.embedding AS embedding FROM knowledge_chunks c
           JOIN knowledge_files f ON f.id = c.file_id
           WHERE c.assistant_id = ?1 AND c.embedding IS NOT NULL AND f.status = 'ready' AND c.id > ?2
           ORDER BY c.id LIMIT ?3`,
        )
        .bind(assistantId, after, this.pageSize)
        .all<{ id: number; embedding: unknown }>();
      for (const row of results) {
        const stored = blobToVector(row.embedding);
        if (stored && stored.length === vector.length) top.offer({ chunkId: row.id, score: cosine(vector, stored) });
      }
      if (results.length < this.pageSize) break;
      after = results[results.length - 1]!.id;
    }
    return top.items;
  }

  async deleteByFile(assistantId: string, fileId: string): Promise<void> {
    await this.db
      .prepare("UPDATE knowledge_chunks SET embedding = NULL WHERE file_id = ?1 AND assistant_id = ?2")
      .bind(fileId, assistantId)
      .run();
  }

  async deleteByAssistant(assistantId: string): Promise<void> {
    await this.db.prepare("UPDATE knowledge_chunks SET embedding = NULL WHERE assistant_id = ?1").bind(assistantId).run();
  }
}

/** The part of a Vectorize index binding used here (typed loosely: no local emulation). */
export interface VectorizeLike {
  upsert(vectors: { id: string; values: Float32Array | number[]; namespace?: string; metadata?: Record<string, string> }[]): Promise<unknown>;
  query(
    vector: Float32Array | number[],
    options: { topK: number; namespace?: string; returnValues?: boolean; returnMetadata?: "none" | "indexed" | "all" | boolean },
  ): Promise<{ matches: { id: string; score: number }[] }>;
  deleteByIds(ids: string[]): Promise<unknown>;
}

/**
 * Vectorize: one namespace per assistant (queries never cross assistants), metadata
 * { assistantId, fileId } for audits. Vectorize deletes by id only, so deletions take the chunk ids.
 */
export class VectorizeStore implements VectorStore {
  constructor(private readonly index: VectorizeLike) {}

  async upsert(assistantId: string, records: VectorRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += 500) {
      await this.index.upsert(
        records.slice(i, i + 500).map((r) => ({
          id: String(r.chunkId),
          values: r.vector,
          namespace: assistantId,
          metadata: { assistantId, fileId: r.fileId },
        })),
      );
    }
  }

  async query(assistantId: string, vector: Float32Array, k: number): Promise<VectorMatch[]> {
    const { matches } = await this.index.query(vector, { topK: Math.min(Math.max(1, k), 50), namespace: assistantId, returnMetadata: "none" });
    return matches.map((m) => ({ chunkId: Number(m.id), score: m.score })).filter((m) => Number.isSafeInteger(m.chunkId));
  }

  async deleteByFile(_assistantId: string, _fileId: string, chunkIds: number[]): Promise<void> {
    await this.deleteIds(chunkIds);
  }

  async deleteByAssistant(_assistantId: string, chunkIds: number[]): Promise<void> {
    await this.deleteIds(chunkIds);
  }

  private async deleteIds(chunkIds: number[]) {
    for (let i = 0; i < chunkIds.length; i += 1000) await this.index.deleteByIds(chunkIds.slice(i, i + 1000).map(String));
  }
}

/** In memory, for tests. */
export class MemoryVectorStore implements VectorStore {
  readonly vectors = new Map<number, { assistantId: string; fileId: string; vector: Float32Array }>();

  async upsert(assistantId: string, records: VectorRecord[]): Promise<void> {
    for (const r of records) this.vectors.set(r.chunkId, { assistantId, fileId: r.fileId, vector: r.vector });
  }

  async query(assistantId: string, vector: Float32Array, k: number): Promise<VectorMatch[]> {
    const top = new TopK(Math.max(1, k));
    for (const [chunkId, entry] of this.vectors) {
      if (entry.assistantId === assistantId && entry.vector.length === vector.length) top.offer({ chunkId, score: cosine(vector, entry.vector) });
    }
    return top.items;
  }

  async deleteByFile(assistantId: string, fileId: string): Promise<void> {
    for (const [id, entry] of this.vectors) if (entry.assistantId === assistantId && entry.fileId === fileId) this.vectors.delete(id);
  }

  async deleteByAssistant(assistantId: string): Promise<void> {
    for (const [id, entry] of this.vectors) if (entry.assistantId === assistantId) this.vectors.delete(id);
  }
}
