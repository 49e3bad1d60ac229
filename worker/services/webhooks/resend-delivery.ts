import type { WebhookDelivery } from "../../../contract";
import type { ServiceContext } from "../context";
import { ownedWebhooks, unwrapWebhook, type WebhookOwnerInput } from "./webhook-hub";

/** POST …/deliveries/{deliveryId}/resend: the same event (its id and body) as a new delivery. */
export async function resendDelivery({ ctx, input }: { ctx: ServiceContext; input: WebhookOwnerInput & { webhookId: string; deliveryId: string } }): Promise<{ delivery: WebhookDelivery }> {
  return { delivery: unwrapWebhook(await (await ownedWebhooks(ctx, input)).resend(input.webhookId, input.deliveryId)).delivery };
}
