import { RpcTarget } from "cloudflare:workers";
import type { Gone } from "../gone";
import type { HubCore } from "../hub-core";
import type { ChunkInsert, IndexedChunk, KnowledgeFileChanges, KnowledgeFileRecord } from "../../knowledge/knowledge-index";
import type { Passage } from "../../widget/prompt";
import type { CuratedAnswer } from "../hub-qa";
import { KnowledgeStore } from "../knowledge-store";
import { whenOpen } from "./run";

/**
 * `hub.knowledge()`: the assistant's knowledge (file records, chunks, FTS5, local vectors;
 * knowledge-store.ts), as ingestion, the owner's routes and the Playground reach it. Chunks
 * arrive in batches (ingest.ts: ≤ 500 rows, ~1 MB a call). Every method answers `gone` once the
 * assistant was deleted.
 */
export class KnowledgeFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  #with<T>(use: (store: KnowledgeStore) => T): Promise<T | Gone> {
    return whenOpen(this.#core, () => use(new KnowledgeStore(this.#core.storage)));
  }

  /** The files, newest first. */
  files(): Promise<KnowledgeFileRecord[] | Gone> {
    return this.#with((s) => s.files());
  }
  /** Adds a file record (processing); false when one with this id exists. */
  addFile(file: Omit<KnowledgeFileRecord, "status" | "error" | "chunkCount">): Promise<boolean | Gone> {
    return this.#with((s) => s.addFile(file));
  }
  /** Removes a file record and its chunks (vectors and the R2 object are the caller's). */
  removeFile(fileId: string): Promise<void | Gone> {
    return this.#with((s) => s.removeFile(fileId));
  }
  /** The Playground's passages for `query` and the curated answer its question gets, counting nothing (null passages: retrieval failed). */
  retrieve(input: { query: string; question?: string | undefined }): Promise<{ passages: Passage[] | null; curated: CuratedAnswer | null } | Gone> {
    return whenOpen(this.#core, (opened) => this.#core.retrieveWithCurated(opened.assistant.record, input.query, input.question ?? input.query, { countUse: false }));
  }

  // The `KnowledgeIndex` operations (knowledge/knowledge-index.ts), for ingestion and search.
  file(fileId: string): Promise<KnowledgeFileRecord | null | Gone> {
    return this.#with((s) => s.file(fileId));
  }
  insertChunks(fileId: string, rows: ChunkInsert[], createdAt: number): Promise<void | Gone> {
    return this.#with((s) => s.insertChunks(fileId, rows, createdAt));
  }
  replaceChunks(fileId: string, rows: ChunkInsert[], createdAt: number, changes?: KnowledgeFileChanges): Promise<{ previousR2Key: string } | null | Gone> {
    return this.#with((s) => s.replaceChunks(fileId, rows, createdAt, changes));
  }
  markReady(fileId: string, chunkCount: number): Promise<boolean | Gone> {
    return this.#with((s) => s.markReady(fileId, chunkCount));
  }
  markFailed(fileId: string, error: string): Promise<void | Gone> {
    return this.#with((s) => s.markFailed(fileId, error));
  }
  chunkIds(fileId: string | null): Promise<number[] | Gone> {
    return this.#with((s) => s.chunkIds(fileId));
  }
  legacyChunkIdMax(): Promise<number | Gone> {
    return this.#with((s) => s.legacyChunkIdMax());
  }
  deleteChunks(fileId: string | null): Promise<number | Gone> {
    return this.#with((s) => s.deleteChunks(fileId));
  }
  chunkPage(fileId: string, after: number, limit: number): Promise<{ id: number; heading: string; content: string }[] | Gone> {
    return this.#with((s) => s.chunkPage(fileId, after, limit));
  }
  lexical(match: string, k: number): Promise<IndexedChunk[] | Gone> {
    return this.#with((s) => s.lexical(match, k));
  }
  chunks(ids: number[]): Promise<IndexedChunk[] | Gone> {
    return this.#with((s) => s.chunks(ids));
  }
  setEmbeddings(records: { chunkId: number; vector: number[] }[]): Promise<void | Gone> {
    return this.#with((s) => s.setEmbeddings(records));
  }
  clearEmbeddings(fileId: string | null): Promise<void | Gone> {
    return this.#with((s) => s.clearEmbeddings(fileId));
  }
  nearest(vector: number[], k: number): Promise<{ chunkId: number; score: number }[] | Gone> {
    return this.#with((s) => s.nearest(vector, k));
  }
}
