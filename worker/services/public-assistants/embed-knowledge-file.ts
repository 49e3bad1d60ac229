import { and, eq } from "drizzle-orm";
import { knowledgeFiles } from "../../db/schema";
import { embedFileChunks } from "../../knowledge";
import type { ServiceContext } from "../context";
import { knowledgeStores } from "./knowledge-stores";

/**
 * Embeds a ready knowledge file's chunks (the `tala-ingest` queue consumer's work). Returns the
 * number of chunks embedded: 0 when no embedder is configured or the file is gone or not ready
 * (deleted after it was queued). Throws `EmbeddingError` when the endpoint fails, so the message
 * is retried.
 */
export async function embedKnowledgeFile({ ctx, input }: { ctx: ServiceContext; input: { assistantId: string; fileId: string } }): Promise<number> {
  const { embedder, vectors } = knowledgeStores(ctx.env);
  if (!embedder) return 0;
  const [file] = await ctx.db
    .select({ status: knowledgeFiles.status })
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.id, input.fileId), eq(knowledgeFiles.assistantId, input.assistantId)))
    .limit(1);
  if (file?.status !== "ready") return 0;
  return embedFileChunks({ db: ctx.env.DB, assistantId: input.assistantId, fileId: input.fileId, embedder, vectors });
}
