import { hubKnowledgeIndex } from "../../assistant/hub-knowledge-index";
import { IndexVectorStore, VectorizeStore, embeddingProviderFromEnv, type EmbeddingProvider, type KnowledgeIndex, type VectorStore } from "../../knowledge";
import type { Env } from "../../env";

/**
 * The knowledge base's embedder and vector store as the environment configures them: embeddings
 * from Workers AI (binding `AI`) or an OpenAI-compatible endpoint (LLM_BASE_URL + EMBEDDING_MODEL),
 * none otherwise (lexical search only); vectors in Vectorize when bound (`VECTORIZE`, ids scoped
 * by assistant), else on the chunks in each assistant's own object. The vector store is returned
 * even without an embedder: deletions must still clear vectors written while one was configured.
 */
export function knowledgeStores(env: Env): { embedder: EmbeddingProvider | null; vectors: VectorStore } {
  return {
    embedder: embeddingProviderFromEnv(env),
    vectors: env.VECTORIZE ? new VectorizeStore(env.VECTORIZE, { scopedIds: true }) : new IndexVectorStore((id) => hubKnowledgeIndex(env, id)),
  };
}

/** The assistant's knowledge index: its own Durable Object (file records, chunks, FTS5). */
export const knowledgeIndex = (env: Pick<Env, "ASSISTANT_HUB">, assistantId: string): KnowledgeIndex => hubKnowledgeIndex(env, assistantId);
