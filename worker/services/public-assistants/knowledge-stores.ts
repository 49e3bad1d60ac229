import { D1VectorStore, VectorizeStore, embeddingProviderFromEnv, type EmbeddingProvider, type VectorStore } from "../../knowledge";
import type { Env } from "../../env";

/**
 * The knowledge base's embedder and vector store as the environment configures them: embeddings
 * from Workers AI (binding `AI`) or an OpenAI-compatible endpoint (LLM_BASE_URL + EMBEDDING_MODEL),
 * none otherwise (lexical search only); vectors in Vectorize when bound (`VECTORIZE`), else in D1.
 * The vector store is returned even without an embedder: deletions must still clear vectors
 * written while one was configured.
 */
export function knowledgeStores(env: Env): { embedder: EmbeddingProvider | null; vectors: VectorStore } {
  return {
    embedder: embeddingProviderFromEnv(env),
    vectors: env.VECTORIZE ? new VectorizeStore(env.VECTORIZE) : new D1VectorStore(env.DB),
  };
}
