import type { Env } from "../env";
import type { ChunkInsert, IndexedChunk, KnowledgeFileRecord, KnowledgeIndex } from "../knowledge/knowledge-index";
import { reachAssistantHub } from "../widget/get-assistant-hub";
import type { KnowledgeStore } from "./knowledge-store";

/** The index operations the hub serves over RPC (`AssistantHub.knowledge`): the `KnowledgeIndex` methods. */
export const knowledgeOps = [
  "file",
  "insertChunks",
  "markReady",
  "markFailed",
  "chunkIds",
  "legacyChunkIdMax",
  "deleteChunks",
  "chunkPage",
  "lexical",
  "chunks",
  "setEmbeddings",
  "clearEmbeddings",
  "nearest",
] as const satisfies readonly (keyof KnowledgeIndex & keyof KnowledgeStore)[];
export type KnowledgeOp = (typeof knowledgeOps)[number];

/**
 * An assistant's knowledge index as the worker reaches it: each call is one RPC to the
 * assistant's own object (AssistantHub.knowledge). Chunks are sent in batches by the caller
 * (ingest.ts: ≤ 500 rows, ~1 MB a call).
 */
export function hubKnowledgeIndex(env: Pick<Env, "ASSISTANT_HUB">, assistantId: string): KnowledgeIndex {
  const hub = reachAssistantHub(env, assistantId);
  const call = <T>(op: KnowledgeOp, ...args: unknown[]) => hub.knowledge(assistantId, op, args) as Promise<T>;
  return {
    file: (fileId) => call<KnowledgeFileRecord | null>("file", fileId),
    insertChunks: (fileId, rows: ChunkInsert[], createdAt) => call<void>("insertChunks", fileId, rows, createdAt),
    markReady: (fileId, chunkCount) => call<boolean>("markReady", fileId, chunkCount),
    markFailed: (fileId, error) => call<void>("markFailed", fileId, error),
    chunkIds: (fileId) => call<number[]>("chunkIds", fileId),
    legacyChunkIdMax: () => call<number>("legacyChunkIdMax"),
    deleteChunks: (fileId) => call<number>("deleteChunks", fileId),
    chunkPage: (fileId, after, limit) => call<{ id: number; heading: string; content: string }[]>("chunkPage", fileId, after, limit),
    lexical: (match, k) => call<IndexedChunk[]>("lexical", match, k),
    chunks: (ids) => call<IndexedChunk[]>("chunks", ids),
    setEmbeddings: (records) => call<void>("setEmbeddings", records),
    clearEmbeddings: (fileId) => call<void>("clearEmbeddings", fileId),
    nearest: (vector, k) => call<{ chunkId: number; score: number }[]>("nearest", vector, k),
  };
}

/** The hub's own store as a `KnowledgeIndex` (search next to the index, no RPC). */
export function localKnowledgeIndex(store: KnowledgeStore): KnowledgeIndex {
  return {
    file: async (fileId) => store.file(fileId),
    insertChunks: async (fileId, rows, createdAt) => store.insertChunks(fileId, rows, createdAt),
    markReady: async (fileId, chunkCount) => store.markReady(fileId, chunkCount),
    markFailed: async (fileId, error) => store.markFailed(fileId, error),
    chunkIds: async (fileId) => store.chunkIds(fileId),
    legacyChunkIdMax: async () => store.legacyChunkIdMax(),
    deleteChunks: async (fileId) => store.deleteChunks(fileId),
    chunkPage: async (fileId, after, limit) => store.chunkPage(fileId, after, limit),
    lexical: async (match, k) => store.lexical(match, k),
    chunks: async (ids) => store.chunks(ids),
    setEmbeddings: async (records) => store.setEmbeddings(records),
    clearEmbeddings: async (fileId) => store.clearEmbeddings(fileId),
    nearest: async (vector, k) => store.nearest(vector, k),
  };
}
