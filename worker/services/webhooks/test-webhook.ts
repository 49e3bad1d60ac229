import type { WebhookDelivery } from "../../../contract";
import type { ServiceContext } from "../context";
import { ownedWebhooks, unwrapWebhook, type WebhookOwnerInput } from "./webhook-hub";

/** POST …/webhooks/{webhookId}/test: a `webhook.test` event to that endpoint only, delivered by the queue like any other. */
export async function testWebhook({ ctx, input }: { ctx: ServiceContext; input: WebhookOwnerInput & { webhookId: string } }): Promise<{ delivery: WebhookDelivery }> {
  return { delivery: unwrapWebhook(await (await ownedWebhooks(ctx, input)).test(input.webhookId)).delivery };
}
