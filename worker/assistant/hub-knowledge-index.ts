import type { Env } from "../env";
import type { KnowledgeIndex } from "../knowledge/knowledge-index";
import { isGone, type Gone } from "./gone";
import { reachAssistantHub } from "../durable-objects/stubs";
import type { KnowledgeStore } from "./knowledge-store";

/**
 * An assistant's knowledge index as the worker reaches it: each call is one pipelined RPC to the
 * assistant's own object (`hub.knowledge()`, facets/knowledge.ts). Chunks are sent in batches by
 * the caller (ingest.ts: ≤ 500 rows, ~1 MB a call). A deleted assistant's index throws (the
 * ingestion of its file stops there).
 */
export function hubKnowledgeIndex(env: Pick<Env, "ASSISTANT_HUB">, assistantId: string): KnowledgeIndex {
  const knowledge = () => reachAssistantHub(env, assistantId).knowledge();
  const call = async <P extends PromiseLike<unknown>>(result: P): Promise<Exclude<Awaited<P>, Gone>> => {
    const answer = await result;
    if (isGone(answer)) throw new Error("assistant not found");
    return answer as Exclude<Awaited<P>, Gone>;
  };
  return {
    file: (fileId) => call(knowledge().file(fileId)),
    insertChunks: (fileId, rows, createdAt) => call(knowledge().insertChunks(fileId, rows, createdAt)),
    replaceChunks: (fileId, rows, createdAt, changes) => call(knowledge().replaceChunks(fileId, rows, createdAt, changes)),
    markReady: (fileId, chunkCount) => call(knowledge().markReady(fileId, chunkCount)),
    markFailed: (fileId, error) => call(knowledge().markFailed(fileId, error)),
    chunkIds: (fileId) => call(knowledge().chunkIds(fileId)),
    legacyChunkIdMax: () => call(knowledge().legacyChunkIdMax()),
    deleteChunks: (fileId) => call(knowledge().deleteChunks(fileId)),
    chunkPage: (fileId, after, limit) => call(knowledge().chunkPage(fileId, after, limit)),
    lexical: (match, k) => call(knowledge().lexical(match, k)),
    chunks: (ids) => call(knowledge().chunks(ids)),
    setEmbeddings: (records) => call(knowledge().setEmbeddings(records)),
    clearEmbeddings: (fileId) => call(knowledge().clearEmbeddings(fileId)),
    nearest: (vector, k) => call(knowledge().nearest(vector, k)),
  };
}

/** The hub's own store as a `KnowledgeIndex` (search next to the index, no RPC). */
export function localKnowledgeIndex(store: KnowledgeStore): KnowledgeIndex {
  return {
    file: async (fileId) => store.file(fileId),
    insertChunks: async (fileId, rows, createdAt) => store.insertChunks(fileId, rows, createdAt),
    replaceChunks: async (fileId, rows, createdAt, changes) => store.replaceChunks(fileId, rows, createdAt, changes),
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
