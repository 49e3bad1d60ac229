import { webhookLimits, type WebhooksResponse } from "../../../contract";
import type { ServiceContext } from "../context";
import { ownedWebhooks, unwrapWebhook, type WebhookOwnerInput } from "./webhook-hub";

/** GET …/webhooks: the endpoints (never a secret: its hint) and the event types one can subscribe to. */
export async function listWebhooks({ ctx, input }: { ctx: ServiceContext; input: WebhookOwnerInput }): Promise<WebhooksResponse> {
  const { webhooks } = unwrapWebhook(await (await ownedWebhooks(ctx, input)).list());
  return { webhooks, events: [...webhookLimits.events] };
}
