import { and, eq, sql } from "drizzle-orm";
import { writeBatch } from "../../db/client";
import { assistantAudit, auditInsertWhen } from "../team/audit";
import { generateApiKey, hashApiKey, maskApiKey } from "../../crypto/api-key";
import { widgetSocketClose } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import { nextUpdatedAt } from "./to-public-assistant";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { assistantChanging, revokeWidgetSockets } from "../widget/revoke-widget-sockets";
import { encryptApiKey } from "./api-key-encryption";
import { assistantWorkspace } from "./find-public-assistant";

/**
 * Replaces the assistant's API key and returns the new one. The old key stops working at once:
 * lookups go by `api_key_hash`, which this single UPDATE replaces; the widget sockets opened with
 * it are closed right after (they stay refused at their next message even if that fails).
 */
export async function regenerateApiKey({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
}): Promise<string> {
  const apiKey = generateApiKey();
  // The assistant's object re-reads D1 from now until the write is done (revoke-widget-sockets.ts).
  const token = await assistantChanging({ ctx, input });
  const apiKeyHash = await hashApiKey(apiKey);
  const masked = maskApiKey(apiKey);
  const workspaceId = assistantWorkspace(ctx, input);
  const loaded = ctx.access?.assistant;
  const [updated] = await writeBatch(ctx.db, [
    ctx.db
      .update(publicAssistants)
      .set({ apiKeyHash, apiKeyEncrypted: await encryptApiKey(ctx.env, input.assistantId, apiKey), apiKeyMasked: masked, updatedAt: nextUpdatedAt() })
      .where(and(eq(publicAssistants.id, input.assistantId), eq(publicAssistants.userId, workspaceId)))
      .returning({ id: publicAssistants.id }),
    // Recorded only when the key was replaced; named by its mask, never the key.
    auditInsertWhen(
      ctx,
      assistantAudit(ctx, { id: input.assistantId, name: loaded?.id === input.assistantId ? loaded.name : "", userId: workspaceId }, "api_key.regenerated", { target: masked }),
      sql`EXISTS (SELECT 1 FROM ${publicAssistants} WHERE id = ${input.assistantId} AND api_key_hash = ${apiKeyHash})`,
    ),
  ]);
  if (updated.length === 0) throw notFound();
  await revokeWidgetSockets({ ctx, input: { assistantId: input.assistantId, token, close: widgetSocketClose.unavailable } });
  return apiKey;
}
