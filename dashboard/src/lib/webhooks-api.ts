/**
 * The owner's webhook calls (contract/schemas/webhooks.ts), one function per call, each answer
 * parsed with the contract's schema. Writes that must not happen twice (create: a second endpoint
 * and secret; a test event; a resend; a rotation that would replace the secret just shown) go
 * once (`retry: false`); a failure is shown and the owner tries again.
 */
import {
  deliveriesResponse,
  deliveryResponse,
  webhookCreatedResponse,
  webhookResponse,
  webhookSecretResponse,
  webhooksResponse,
  type WebhookCreateBody,
  type WebhookDelivery,
  type WebhookPatchBody,
  type Webhook,
  type WebhooksResponse,
} from "../../../contract";
import { apiClient, type ApiClient } from "./api";

const hooksPath = (assistantId: string, rest = "") => `/public-assistants/${encodeURIComponent(assistantId)}/webhooks${rest}`;
const hookPath = (assistantId: string, webhookId: string, rest = "") => hooksPath(assistantId, `/${encodeURIComponent(webhookId)}${rest}`);

export function createWebhooksApi(client: ApiClient) {
  return {
    /** GET …/webhooks: the endpoints (never a secret) and the event types the server sends. */
    list: (assistantId: string, signal?: AbortSignal): Promise<WebhooksResponse> => client.get(hooksPath(assistantId), { schema: webhooksResponse, signal }),
    /** POST …/webhooks → 201: the endpoint and its secret, the one time it is shown. */
    create: (assistantId: string, body: WebhookCreateBody): Promise<{ webhook: Webhook; secret: string }> =>
      client.post(hooksPath(assistantId), body, { schema: webhookCreatedResponse, retry: false }),
    update: async (assistantId: string, webhookId: string, body: WebhookPatchBody): Promise<Webhook> =>
      (await client.patch(hookPath(assistantId, webhookId), body, { schema: webhookResponse })).webhook,
    remove: (assistantId: string, webhookId: string) => client.delete(hookPath(assistantId, webhookId)),
    /** POST …/test → 202: a `webhook.test` event to this endpoint only. */
    test: async (assistantId: string, webhookId: string): Promise<WebhookDelivery> =>
      (await client.post(hookPath(assistantId, webhookId, "/test"), undefined, { schema: deliveryResponse, retry: false })).delivery,
    deliveries: async (assistantId: string, webhookId: string, signal?: AbortSignal): Promise<WebhookDelivery[]> =>
      (await client.get(hookPath(assistantId, webhookId, "/deliveries"), { schema: deliveriesResponse, signal })).deliveries,
    /** POST …/deliveries/{id}/resend → 202: the same event id, a new delivery. */
    resend: async (assistantId: string, webhookId: string, deliveryId: string): Promise<WebhookDelivery> =>
      (await client.post(hookPath(assistantId, webhookId, `/deliveries/${encodeURIComponent(deliveryId)}/resend`), undefined, { schema: deliveryResponse, retry: false }))
        .delivery,
    /** POST …/rotate-secret: the new secret (the old one stops at once). */
    rotateSecret: async (assistantId: string, webhookId: string): Promise<string> =>
      (await client.post(hookPath(assistantId, webhookId, "/rotate-secret"), undefined, { schema: webhookSecretResponse, retry: false })).secret,
  };
}

export type WebhooksApi = ReturnType<typeof createWebhooksApi>;
export const webhooksApi: WebhooksApi = createWebhooksApi(apiClient);
