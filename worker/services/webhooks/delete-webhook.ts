import type { ServiceContext } from "../context";
import { auditWebhook, ownedWebhooks, unwrapWebhook, type WebhookOwnerInput } from "./webhook-hub";

/** DELETE …/webhooks/{webhookId}: the endpoint and its deliveries go; nothing more is sent to it. */
export async function deleteWebhook({ ctx, input }: { ctx: ServiceContext; input: WebhookOwnerInput & { webhookId: string } }): Promise<void> {
  const { url } = unwrapWebhook(await (await ownedWebhooks(ctx, input)).remove(input.webhookId));
  await auditWebhook(ctx, input, "webhook.deleted", url);
}
