import { embedFileChunks } from "../../knowledge";
import type { ServiceContext } from "../context";
import { knowledgeIndex, knowledgeStores } from "./knowledge-stores";

/**
 * Embeds a ready knowledge file's chunks (the `tala-ingest` queue consumer's work), reading them
 * from the assistant's own object a page at a time. Returns the number of chunks embedded: 0 when
 * no embedder is configured or the file is gone or not ready (deleted after it was queued).
 * Throws `EmbeddingError` when the endpoint fails, so the message is retried.
 */
export async function embedKnowledgeFile({ ctx, input }: { ctx: ServiceContext; input: { assistantId: string; fileId: string } }): Promise<number> {
  const { embedder, vectors } = knowledgeStores(ctx.env);
  if (!embedder) return 0;
  const index = knowledgeIndex(ctx.env, input.assistantId);
  const file = await index.file(input.fileId);
  if (file?.status !== "ready") return 0;
  return embedFileChunks({ index, assistantId: input.assistantId, fileId: input.fileId, embedder, vectors });
}
