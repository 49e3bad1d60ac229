import type { Webhook } from "../../../contract";
import { invalid } from "../../http/errors";
import type { ServiceContext } from "../context";
import { checkWebhookAddress } from "./webhook-address";
import { ownedWebhooks, unwrapWebhook, type WebhookOwnerInput } from "./webhook-hub";

/** PATCH …/webhooks/{webhookId}: url, events, description, enabled (true turns a disabled one on again and clears its failing streak). */
export async function updateWebhook({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: WebhookOwnerInput & { webhookId: string; patch: { url?: string | undefined; events?: string[] | undefined; description?: string | undefined; enabled?: boolean | undefined }; appOrigin: string };
}): Promise<{ webhook: Webhook }> {
  let url = input.patch.url;
  if (url !== undefined) {
    const address = await checkWebhookAddress(url, ctx.env);
    if (!address.ok && address.reason !== "unresolvable") throw invalid(address.error, { url: address.error });
    if (address.ok) url = address.url;
  }
  const facet = await ownedWebhooks(ctx, input);
  const patch = {
    ...(url !== undefined ? { url } : {}),
    ...(input.patch.events !== undefined ? { events: input.patch.events } : {}),
    ...(input.patch.description !== undefined ? { description: input.patch.description } : {}),
    ...(input.patch.enabled !== undefined ? { enabled: input.patch.enabled } : {}),
    appOrigin: input.appOrigin,
  };
  return { webhook: unwrapWebhook(await facet.update(input.webhookId, patch)).webhook };
}
