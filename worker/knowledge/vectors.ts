import type { KnowledgeIndex } from "./knowledge-index";

/**
 * Where chunk vectors live and how the nearest ones are found, per assistant. Three stores:
 * the assistant's own index (the `knowledge_chunks.embedding` blob in its Durable Object,
 * brute-force cosine: local mode and small knowledge bases), Vectorize (production: a namespace
 * per assistant), and memory (tests). Chunk ids are per assistant since the move into its own
 * object: a Vectorize id is `assistantId:chunkId` (ids written before the move, the bare global
 * chunk id, are still read, and deleted for the chunks the move brought: `legacyUpTo`).
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
  /**
   * `chunkIds` are the file's chunks: stores that cannot filter on delete (Vectorize) need them.
   * `legacyUpTo`: the greatest chunk id moved from the legacy D1 table (`KnowledgeIndex.legacyChunkIdMax`),
   * whose vectors may still carry the bare id; 0 or absent: none.
   */
  deleteByFile(assistantId: string, fileId: string, chunkIds: number[], legacyUpTo?: number): Promise<void>;
  deleteByAssistant(assistantId: string, chunkIds: number[], legacyUpTo?: number): Promise<void>;
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
 * Vectors in the assistant's own index (a Float32 blob on each chunk), searched by brute force
 * next to it: the assistant's embedded chunks are scored page by page, keeping the best k. Cost
 * grows with the knowledge base (a 1024-dimension vector is 4 KB): fine for local mode and small
 * knowledge bases; production uses Vectorize. Vectors of another length (a changed model) are skipped.
 */
export class IndexVectorStore implements VectorStore {
  constructor(private readonly indexOf: (assistantId: string) => KnowledgeIndex) {}

  async upsert(assistantId: string, records: VectorRecord[]): Promise<void> {
    await this.indexOf(assistantId).setEmbeddings(records.map((r) => ({ chunkId: r.chunkId, vector: [...r.vector] })));
  }

  async query(assistantId: string, vector: Float32Array, k: number): Promise<VectorMatch[]> {
    return this.indexOf(assistantId).nearest([...vector], k);
  }

  async deleteByFile(assistantId: string, fileId: string): Promise<void> {
    await this.indexOf(assistantId).clearEmbeddings(fileId);
  }

  async deleteByAssistant(assistantId: string): Promise<void> {
    await this.indexOf(assistantId).clearEmbeddings(null);
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
 * { assistantId, fileId } for audits. With `scopedIds` (what Tala uses) ids are
 * `assistantId:chunkId` (chunk ids are per assistant; Vectorize ids are unique across the index);
 * a bare numeric id is one written before the move, still read, and deleted only for chunk ids
 * the move brought (`legacyUpTo`): a bare id of any other number is another assistant's vector.
 * Vectorize deletes by id only, so deletions take the chunk ids.
 */
export class VectorizeStore implements VectorStore {
  /** `scopedIds`: ids `assistantId:chunkId` (chunk ids per assistant, as in the assistants' own objects); else the bare chunk id. */
  constructor(
    private readonly index: VectorizeLike,
    private readonly options: { scopedIds?: boolean } = {},
  ) {}

  private id(assistantId: string, chunkId: number) {
    return this.options.scopedIds ? vectorId(assistantId, chunkId) : String(chunkId);
  }

  async upsert(assistantId: string, records: VectorRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += 500) {
      await this.index.upsert(
        records.slice(i, i + 500).map((r) => ({
          id: this.id(assistantId, r.chunkId),
          values: r.vector,
          namespace: assistantId,
          metadata: { assistantId, fileId: r.fileId },
        })),
      );
    }
  }

  async query(assistantId: string, vector: Float32Array, k: number): Promise<VectorMatch[]> {
    const { matches } = await this.index.query(vector, { topK: Math.min(Math.max(1, k), 50), namespace: assistantId, returnMetadata: "none" });
    return matches.map((m) => ({ chunkId: Number(m.id.slice(m.id.lastIndexOf(":") + 1)), score: m.score })).filter((m) => Number.isSafeInteger(m.chunkId));
  }

  async deleteByFile(assistantId: string, _fileId: string, chunkIds: number[], legacyUpTo = 0): Promise<void> {
    await this.deleteIds(assistantId, chunkIds, legacyUpTo);
  }

  async deleteByAssistant(assistantId: string, chunkIds: number[], legacyUpTo = 0): Promise<void> {
    await this.deleteIds(assistantId, chunkIds, legacyUpTo);
  }

  private async deleteIds(assistantId: string, chunkIds: number[], legacyUpTo: number) {
    // Scoped: the bare id goes too for a chunk moved from D1 (its global id: that vector is this
    // assistant's). Vectorize ids are global, so a bare id above `legacyUpTo` would be the legacy
    // vector of whichever assistant had that D1 chunk id: never deleted from here.
    const ids = this.options.scopedIds
      ? chunkIds.flatMap((id) => (id <= legacyUpTo ? [vectorId(assistantId, id), String(id)] : [vectorId(assistantId, id)]))
      : chunkIds.map(String);
    for (let i = 0; i < ids.length; i += 1000) await this.index.deleteByIds(ids.slice(i, i + 1000));
  }
}

const vectorId = (assistantId: string, chunkId: number) => `${assistantId}:${chunkId}`;

/** In memory, for tests. */
export class MemoryVectorStore implements VectorStore {
  /** Keyed `assistantId:chunkId`: chunk ids are per assistant. */
  readonly vectors = new Map<string, { assistantId: string; chunkId: number; fileId: string; vector: Float32Array }>();

  async upsert(assistantId: string, records: VectorRecord[]): Promise<void> {
    for (const r of records) this.vectors.set(vectorId(assistantId, r.chunkId), { assistantId, chunkId: r.chunkId, fileId: r.fileId, vector: r.vector });
  }

  async query(assistantId: string, vector: Float32Array, k: number): Promise<VectorMatch[]> {
    const top = new TopK(Math.max(1, k));
    for (const entry of this.vectors.values()) {
      if (entry.assistantId === assistantId && entry.vector.length === vector.length) top.offer({ chunkId: entry.chunkId, score: cosine(vector, entry.vector) });
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
