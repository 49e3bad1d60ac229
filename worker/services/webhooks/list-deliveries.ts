import type { DeliveriesResponse } from "../../../contract";
import type { ServiceContext } from "../context";
import { ownedWebhooks, unwrapWebhook, type WebhookOwnerInput } from "./webhook-hub";

/** GET …/webhooks/{webhookId}/deliveries: newest first, one page (webhookLimits.deliveriesPageSize); never a body or a secret. */
export async function listDeliveries({ ctx, input }: { ctx: ServiceContext; input: WebhookOwnerInput & { webhookId: string } }): Promise<DeliveriesResponse> {
  return { deliveries: unwrapWebhook(await (await ownedWebhooks(ctx, input)).deliveries(input.webhookId)).deliveries };
}
