import { knowledgeSearch, type KnowledgeSearchResponse } from "../../../contract";
import { hybridSearch, relevanceFloorFor, relevantHits } from "../../knowledge";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "./find-public-assistant";
import { knowledgeIndex, knowledgeStores } from "./knowledge-stores";

const excerpt = (text: string) =>
  text.length <= knowledgeSearch.excerptChars ? text : `${text.slice(0, knowledgeSearch.excerptChars).replace(/\s+\S*$/, "")}…`;

/**
 * The owner's preview of retrieval: the passages the assistant would draw on for `query`
 * (hybrid when embeddings are configured, BM25 otherwise), best first. Passages under the
 * relevance floor are listed too, flagged `belowFloor`: answers would not use them.
 */
export async function searchKnowledge({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; query: string; limit: number };
}): Promise<KnowledgeSearchResponse> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const { embedder, vectors } = knowledgeStores(ctx.env);
  const found = await hybridSearch({ index: knowledgeIndex(ctx.env, assistant.id), assistantId: assistant.id, query: input.query, embedder, vectors, k: input.limit });
  if (found.vectorError) console.error(JSON.stringify({ assistantId: assistant.id, vectorError: found.vectorError }));
  const used = new Set(relevantHits(found.hits, input.query, relevanceFloorFor(embedder?.model)));
  return {
    results: found.hits.map((hit) => ({ fileId: hit.fileId, fileName: hit.fileName, heading: hit.heading, excerpt: excerpt(hit.content), score: hit.score, ...(hit.url ? { url: hit.url } : {}), ...(used.has(hit) ? {} : { belowFloor: true }) })),
    mode: found.mode,
  };
}
