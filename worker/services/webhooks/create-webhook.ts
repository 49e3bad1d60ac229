import type { Webhook, WebhookCreateBody } from "../../../contract";
import { invalid } from "../../http/errors";
import type { ServiceContext } from "../context";
import { checkWebhookAddress } from "./webhook-address";
import { auditWebhook, ownedWebhooks, unwrapWebhook, type WebhookOwnerInput } from "./webhook-hub";

/**
 * POST …/webhooks: a new endpoint (at most webhookLimits.maxPerAssistant, checked in the
 * assistant's object), its address under the website sources' rules; the secret is in this
 * answer only.
 */
export async function createWebhook({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: WebhookOwnerInput & { body: { url: string; events: WebhookCreateBody["events"]; description: string }; appOrigin: string };
}): Promise<{ webhook: Webhook; secret: string }> {
  const address = await checkWebhookAddress(input.body.url, ctx.env);
  if (!address.ok && address.reason !== "unresolvable") throw invalid(address.error, { url: address.error });
  const facet = await ownedWebhooks(ctx, input);
  const created = unwrapWebhook(await facet.create({ url: address.ok ? address.url : input.body.url, events: [...input.body.events], description: input.body.description, appOrigin: input.appOrigin }));
  await auditWebhook(ctx, input, "webhook.created", created.webhook.url);
  return { webhook: created.webhook, secret: created.secret };
}
