import { publicAssistantServerMessages } from "../../../contract";
import { AppError, notFound } from "../../http/errors";
import { deleteFileKnowledge, type KnowledgeFileRecord } from "../../knowledge";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { findPublicAssistant } from "./find-public-assistant";
import { knowledgeIndex, knowledgeStores } from "./knowledge-stores";

/**
 * The owner's knowledge file, or null (another owner's, another assistant's, or missing):
 * ownership from D1, the record from the assistant's own object.
 */
export async function findKnowledgeFile({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; fileId: string };
}): Promise<(KnowledgeFileRecord & { assistantId: string }) | null> {
  const assistant = await findPublicAssistant({ ctx, input });
  if (!assistant) return null;
  const file = await knowledgeIndex(ctx.env, assistant.id).file(input.fileId);
  return file ? { ...file, assistantId: assistant.id } : null;
}

/**
 * Removes a file from the knowledge base: its vectors, then its chunks (FTS rows by trigger), the
 * R2 object, then the record. The record goes last so a failure part-way can be retried by the owner.
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
  const index = knowledgeIndex(ctx.env, file.assistantId);
  const removed = await deleteFileKnowledge({ index, assistantId: file.assistantId, fileId: file.id, vectors: knowledgeStores(ctx.env).vectors });
  if (removed.vectorError) {
    // Nothing was deleted yet: the owner retries once the vector index answers again.
    console.error(JSON.stringify({ fileId: file.id, vectorError: removed.vectorError }));
    throw new AppError("SERVICE_UNAVAILABLE", publicAssistantServerMessages.knowledgeIndexUnavailable);
  }
  await ctx.env.FILES.delete(file.r2Key);
  await reachAssistantHub(ctx.env, file.assistantId).knowledge().removeFile(file.id);
}
