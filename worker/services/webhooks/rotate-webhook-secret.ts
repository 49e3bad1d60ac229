import type { ServiceContext } from "../context";
import { auditWebhook, ownedWebhooks, unwrapWebhook, type WebhookOwnerInput } from "./webhook-hub";

/** POST …/webhooks/{webhookId}/rotate-secret: a new secret (in this answer only); the old one signs nothing more. */
export async function rotateWebhookSecret({ ctx, input }: { ctx: ServiceContext; input: WebhookOwnerInput & { webhookId: string } }): Promise<{ secret: string }> {
  const { secret, url } = unwrapWebhook(await (await ownedWebhooks(ctx, input)).rotateSecret(input.webhookId));
  await auditWebhook(ctx, input, "webhook.secret_rotated", url);
  return { secret };
}
