import { unlessGone } from "../../assistant/gone";
import { and, eq, inArray } from "drizzle-orm";
import { publicAssistantServerMessages, widgetSocketClose } from "../../../contract";
import { writeBatch } from "../../db/client";
import { assistantSecretKeys, knowledgeFiles, publicAssistants, visitorMessages, visitorSessions } from "../../db/schema";
import { AppError } from "../../http/errors";
import { deleteAssistantKnowledge } from "../../knowledge";
import type { ServiceContext } from "../context";
import { eraseAssistantStore } from "../widget/revoke-widget-sockets";
import { requirePublicAssistant } from "./find-public-assistant";
import { knowledgeIndex, knowledgeStores } from "./knowledge-stores";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { assistantStoragePrefix, deleteStoredObjects } from "./storage";

/**
 * Deletes an assistant and everything it owns: stored files (R2), chunks and their FTS rows
 * (triggers), vectors, knowledge file rows, visitor sessions and messages. Outside stores go
 * first and the D1 rows last, so a failure part-way leaves the assistant in place and a retried
 * DELETE finishes the job; nothing is ever orphaned without a row that points to it. The
 * assistant's own object (visitor sessions, messages, counters, knowledge) is one of those
 * outside stores: it closes its open widget sockets and erases its storage (idempotent) before
 * D1 changes; when it cannot be reached the owner gets a retryable 503 and D1 is untouched.
 */
export async function deletePublicAssistant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
}): Promise<void> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const assistantId = assistant.id;
  const files = unlessGone(await reachAssistantHub(ctx.env, assistantId).knowledge().files(), []);
  await deleteStoredObjects(ctx.env.FILES, files.map((f) => f.r2Key), assistantStoragePrefix(assistantId));
  const removed = await deleteAssistantKnowledge({ index: knowledgeIndex(ctx.env, assistantId), assistantId, vectors: knowledgeStores(ctx.env).vectors });
  if (removed.vectorError) {
    console.error(JSON.stringify({ assistantId, vectorError: removed.vectorError }));
    throw new AppError("SERVICE_UNAVAILABLE", publicAssistantServerMessages.knowledgeIndexUnavailable);
  }
  // Before D1: once the rows are gone a retried DELETE is a 404, so an object erased after them
  // and failing would keep the visitors' data for good.
  await eraseAssistantStore({ ctx, input: { assistantId, close: widgetSocketClose.unavailable } });
  // Legacy rows the move has not reached yet (an assistant whose object was never opened).
  const sessionsOfAssistant = ctx.db.select({ id: visitorSessions.id }).from(visitorSessions).where(eq(visitorSessions.assistantId, assistantId));
  await writeBatch(ctx.db, [
    ctx.db.delete(visitorMessages).where(inArray(visitorMessages.sessionId, sessionsOfAssistant)),
    ctx.db.delete(visitorSessions).where(eq(visitorSessions.assistantId, assistantId)),
    ctx.db.delete(knowledgeFiles).where(eq(knowledgeFiles.assistantId, assistantId)),
    // Not left to the foreign key's cascade: D1 enforces it, but nothing here relies on PRAGMAs.
    ctx.db.delete(assistantSecretKeys).where(eq(assistantSecretKeys.assistantId, assistantId)),
    ctx.db.delete(publicAssistants).where(and(eq(publicAssistants.id, assistantId), eq(publicAssistants.userId, assistant.userId))),
  ]);
}
