import { and, eq } from "drizzle-orm";
import { publicAssistantServerMessages } from "../../../contract";
import { knowledgeFiles, publicAssistants } from "../../db/schema";
import { AppError, notFound } from "../../http/errors";
import { deleteFileKnowledge } from "../../knowledge";
import type { ServiceContext } from "../context";
import { knowledgeStores } from "./knowledge-stores";

/** The owner's knowledge file row, or null (another owner's, another assistant's, or missing). */
export async function findKnowledgeFile({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; fileId: string };
}) {
  const [row] = await ctx.db
    .select({ file: knowledgeFiles })
    .from(knowledgeFiles)
    .innerJoin(publicAssistants, eq(knowledgeFiles.assistantId, publicAssistants.id))
    .where(and(eq(knowledgeFiles.id, input.fileId), eq(knowledgeFiles.assistantId, input.assistantId), eq(publicAssistants.userId, input.userId)))
    .limit(1);
  return row?.file ?? null;
}

/**
 * Removes a file from the knowledge base: its chunks (FTS rows by trigger) and vectors, the R2
 * object, then the row. The row goes last so a failure part-way can be retried by the owner.
 */
export async function deleteKnowledgeFile({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; fileId: string };
}): Promise<void> {
  const file = await findKnowledgeFile({ ctx, input });
  if (!file) throw notFound();
  const removed = await deleteFileKnowledge({ db: ctx.env.DB, assistantId: file.assistantId, fileId: file.id, vectors: knowledgeStores(ctx.env).vectors });
  if (removed.vectorError) {
    // Nothing was deleted yet: the owner retries once the vector index answers again.
    console.error(JSON.stringify({ fileId: file.id, vectorError: removed.vectorError }));
    throw new AppError("SERVICE_UNAVAILABLE", publicAssistantServerMessages.knowledgeIndexUnavailable);
  }
  await ctx.env.FILES.delete(file.r2Key);
  await ctx.db.delete(knowledgeFiles).where(and(eq(knowledgeFiles.id, file.id), eq(knowledgeFiles.assistantId, file.assistantId)));
}
