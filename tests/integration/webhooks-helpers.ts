import { env } from "cloudflare:test";
import { expect } from "vitest";
import { apiKeyResponse, deliveriesResponse, webhookCreatedResponse, type WebhookCreateBody } from "../../contract";
import type { Env } from "../../worker/env";
import { handleWebhookBatch, type WebhookConsumerOptions } from "../../worker/queues/webhooks";
import type { WebhookQueueMessage } from "../../worker/queues/messages";
import { call, json, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";

/** Helpers of tests/integration/webhooks.*.test.ts: the receiver (tests/webhook-receiver), endpoints, the queue driven by hand. */

export interface Received {
  method: string;
  headers: Record<string, string | undefined>;
  body: string;
  at: number;
}

/** A receiver path of its own (`/hook/<name>`) and its recorded requests. */
export function receiver(name = crypto.randomUUID().slice(0, 12)) {
  const base = env.WEBHOOK_RECEIVER_URL;
  return {
    url: `${base}/hook/${name}`,
    async script(steps: unknown[]) {
      const res = await fetch(`${base}/__script/${name}`, { method: "POST", body: JSON.stringify(steps) });
      expect(res.status).toBe(204);
    },
    async requests(): Promise<Received[]> {
      return (await (await fetch(`${base}/__requests/${name}`)).json()) as Received[];
    },
    /** Waits until at least `count` requests came (polling, up to `ms`). */
    async waitFor(count: number, ms = 8000): Promise<Received[]> {
      const until = Date.now() + ms;
      for (;;) {
        const list = await this.requests();
        if (list.length >= count || Date.now() > until) return list;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

export const hooksPath = (assistantId: string, rest = "") => `/api/public-assistants/${assistantId}/webhooks${rest}`;

export async function createWebhook(token: string, assistantId: string, body: WebhookCreateBody) {
  const res = await call(hooksPath(assistantId), { token, method: "POST", json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res, webhookCreatedResponse);
}

export async function deliveriesOf(token: string, assistantId: string, webhookId: string) {
  const res = await call(hooksPath(assistantId, `/${webhookId}/deliveries`), { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json(res, deliveriesResponse)).deliveries;
}

/** A fresh owner ("Shop helper", its key, the owner's address) with one endpoint on a receiver of its own. */
export async function hookedAssistant(events: WebhookCreateBody["events"]) {
  const { token, email: ownerEmail } = await registerUser();
  const assistant = await createAssistant(token, { name: "Shop helper" });
  const { apiKey: key } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token }), apiKeyResponse);
  const hook = receiver();
  const created = await createWebhook(token, assistant._id, { url: hook.url, events });
  return { token, ownerEmail, assistant, key, hook, webhook: created.webhook, secret: created.secret };
}

/** A queue that keeps what the consumer re-sends (with its delay). */
export function keptQueue() {
  const sent: { body: WebhookQueueMessage; delaySeconds: number | undefined }[] = [];
  return {
    sent,
    queue: {
      send: async (body: WebhookQueueMessage, options?: { delaySeconds?: number }) => void sent.push({ body, delaySeconds: options?.delaySeconds }),
      sendBatch: async (messages: Iterable<{ body: WebhookQueueMessage }>) => {
        for (const m of messages) sent.push({ body: m.body, delaySeconds: undefined });
      },
    },
  };
}

/**
 * Runs the consumer on one message as the queue would (acked or retried), with the test's clock
 * (`now`) and a queue that keeps the re-sends. Returns what happened to the message and the re-sends.
 */
export async function consume(assistantId: string, deliveryId: string, options: WebhookConsumerOptions = {}) {
  const kept = keptQueue();
  let outcome: "acked" | { retried: number | undefined } | "none" = "none";
  const message = {
    id: crypto.randomUUID(),
    timestamp: new Date(),
    attempts: 1,
    body: { assistantId, deliveryId },
    ack: () => void (outcome = "acked"),
    retry: (o?: { delaySeconds?: number }) => void (outcome = { retried: o?.delaySeconds }),
  };
  const batch = { queue: "tala-webhooks", messages: [message], ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<unknown>;
  await handleWebhookBatch(batch, { ...env, WEBHOOK_QUEUE: kept.queue } as unknown as Env, options);
  return { outcome, resent: kept.sent };
}
