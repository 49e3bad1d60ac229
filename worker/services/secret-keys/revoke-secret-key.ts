import { and, eq, isNull, sql } from "drizzle-orm";
import { assistantAudit, auditInsertWhen } from "../team/audit";
import { writeBatch } from "../../db/client";
import { assistantSecretKeys, publicAssistants } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { nextUpdatedAt } from "../public-assistants/to-public-assistant";
import { assistantChanging, revokeWidgetSockets } from "../widget/revoke-widget-sockets";

/**
 * DELETE …/secret-keys/:keyId: the key is refused from the next request. /v1 checks keys against
 * the assistant's own object's copy, so that object is told before the write and refreshed after
 * it (revoke-widget-sockets.ts: if it cannot be told, the revoke fails with a retryable 503 and
 * nothing changed; if the refresh fails, the object re-reads D1 on every call until it settles),
 * and the assistant's `updatedAt` moves with the key. Another owner's, another assistant's, an
 * unknown or an already revoked key is a 404.
 */
export async function revokeSecretKey({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; keyId: string };
}): Promise<void> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const token = await assistantChanging({ ctx, input });
  const revokedAt = Date.now();
  let revoked: number;
  try {
    const [result] = await writeBatch(ctx.db, [
      ctx.db
        .update(assistantSecretKeys)
        .set({ revokedAt })
        .where(and(eq(assistantSecretKeys.id, input.keyId), eq(assistantSecretKeys.assistantId, assistant.id), isNull(assistantSecretKeys.revokedAt))),
      ctx.db.update(publicAssistants).set({ updatedAt: nextUpdatedAt() }).where(eq(publicAssistants.id, assistant.id)),
      // Recorded only when this call revoked it; the key by its name and mask, read from its row.
      auditInsertWhen(
        ctx,
        assistantAudit(ctx, assistant, "secret_key.revoked"),
        sql`EXISTS (SELECT 1 FROM ${assistantSecretKeys} WHERE id = ${input.keyId} AND revoked_at = ${revokedAt})`,
        sql`(SELECT name || ' (' || masked || ')' FROM ${assistantSecretKeys} WHERE id = ${input.keyId})`,
      ),
    ]);
    revoked = result.meta.changes;
  } finally {
    // Whatever the write did, the object reads D1 again (this write's marker goes).
    await revokeWidgetSockets({ ctx, input: { assistantId: assistant.id, token } });
  }
  if (!revoked) throw notFound();
}
