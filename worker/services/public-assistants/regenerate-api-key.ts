import { and, eq } from "drizzle-orm";
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
  const updated = await ctx.db
    .update(publicAssistants)
    .set({
      apiKeyHash: await hashApiKey(apiKey),
      apiKeyEncrypted: await encryptApiKey(ctx.env, input.assistantId, apiKey),
      apiKeyMasked: maskApiKey(apiKey),
      updatedAt: nextUpdatedAt(),
    })
    .where(and(eq(publicAssistants.id, input.assistantId), eq(publicAssistants.userId, assistantWorkspace(ctx, input))))
    .returning({ id: publicAssistants.id });
  if (updated.length === 0) throw notFound();
  await revokeWidgetSockets({ ctx, input: { assistantId: input.assistantId, token, close: widgetSocketClose.unavailable } });
  return apiKey;
}
