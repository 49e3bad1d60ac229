import { z } from "zod";
import { webhookLimits as L, webhookMessages as M } from "../../contract";
import { isGone } from "../assistant/gone";
import type { WebhookAttempt, WebhookReport } from "../assistant/hub-webhooks";
import { signWebhook } from "../crypto/webhook-signature";
import { callFacet, getAssistantHub } from "../durable-objects/stubs";
import type { Env } from "../env";
import { checkWebhookAddress } from "../services/webhooks/webhook-address";
import { emailOwnerOfDisabledWebhook } from "../services/webhooks/webhook-emails";
import type { WebhookQueueMessage } from "./messages";

const webhookMessage = z.object({ assistantId: z.string().min(1).max(100), deliveryId: z.string().min(1).max(100) });

/** Cloudflare Queues delays a message at most 12 hours. */
const MAX_QUEUE_DELAY_SECONDS = 12 * 60 * 60;
/** When the assistant's object did not answer: the message is retried by the queue after this. */
const HUB_RETRY_SECONDS = 30;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** A seam for tests and benches: the clock the object's decisions read, and the fetch that reaches endpoints. */
export interface WebhookConsumerOptions {
  now?: () => number;
  fetcher?: typeof fetch;
}

/**
 * The `tala-webhooks` queue consumer: per message `{ assistantId, deliveryId }`, asks the
 * assistant's object for the attempt (null: nothing to send: acked; `wait`: another copy of the
 * message is attempting it, retried after that attempt's lease), POSTs it signed
 * (`deliverWebhook`), reports the outcome, and does what the object decided: a retry is sent
 * again with its delay (`delaySeconds`) and the message acked; done and given up are acked. When
 * the object turned the endpoint off, the owner's e-mail goes from here (D1 read off the turn path).
 * A malformed message is dropped; an object that does not answer is retried by the queue.
 */
export async function handleWebhookBatch(batch: MessageBatch<unknown>, env: Env, options: WebhookConsumerOptions = {}): Promise<void> {
  await Promise.all(batch.messages.map((message) => handleOne(message, env, batch.queue, options)));
}

async function handleOne(message: Message<unknown>, env: Env, queue: string, options: WebhookConsumerOptions) {
  const parsed = webhookMessage.safeParse(message.body);
  if (!parsed.success) {
    console.error(JSON.stringify({ queue, messageId: message.id, error: "malformed webhook message dropped" }));
    message.ack();
    return;
  }
  const { assistantId, deliveryId } = parsed.data;
  const now = options.now ?? Date.now;
  try {
    const hub = getAssistantHub(env, assistantId);
    const attempt = await callFacet(hub.webhooks(), (f) => f.attempt({ deliveryId, now: now() }));
    if (!attempt || isGone(attempt)) {
      message.ack();
      return;
    }
    if ("wait" in attempt) {
      // Another copy of this message is attempting it now: this one comes back when that attempt's
      // lease ends, as a new message (a retry of this one would spend the queue's few retries).
      await requeue(env, message, { assistantId, deliveryId }, attempt.wait);
      return;
    }
    const outcome = await deliverWebhook(attempt, env, options.fetcher ?? fetch);
    const report: WebhookReport = { deliveryId, attempt: attempt.attempt, now: now(), ...outcome };
    const answer = await callFacet(hub.webhooks(), (f) => f.report(report));
    if (isGone(answer)) {
      message.ack();
      return;
    }
    console.log(JSON.stringify({ queue, assistantId, deliveryId, attempt: attempt.attempt, status: outcome.status, decision: answer.decision.kind }));
    if (answer.disabled) {
      await emailOwnerOfDisabledWebhook(env, { assistantId, ...answer.disabled }).catch((error: unknown) =>
        console.error(JSON.stringify({ event: "webhook-disabled-email-failed", assistantId, error: String(error) })),
      );
    }
    if (answer.decision.kind === "retry") {
      await requeue(env, message, { assistantId, deliveryId }, answer.decision.delaySeconds);
      return;
    }
    message.ack();
  } catch (error) {
    console.error(JSON.stringify({ queue, assistantId, deliveryId, attempts: message.attempts, error: String(error) }));
    message.retry({ delaySeconds: HUB_RETRY_SECONDS });
  }
}

/** `body` again after `seconds` as a new message, and this one acked; when the queue refuses the send, this very message is retried after the same delay. */
async function requeue(env: Env, message: Message<unknown>, body: WebhookQueueMessage, seconds: number) {
  const delaySeconds = Math.min(seconds, MAX_QUEUE_DELAY_SECONDS);
  try {
    await env.WEBHOOK_QUEUE!.send(body, { delaySeconds });
  } catch (error) {
    console.error(JSON.stringify({ event: "webhook-resend-failed", assistantId: body.assistantId, deliveryId: body.deliveryId, error: String(error) }));
    message.retry({ delaySeconds });
    return;
  }
  message.ack();
}

/** What one attempt gives the object to decide on (never the secret, never the body). */
export type DeliveryOutcome = Omit<WebhookReport, "deliveryId" | "attempt" | "now">;

/**
 * One signed POST of the event's body: `Tala-Signature` (made now), `Tala-Event-Id`,
 * `Content-Type`, `User-Agent`; `redirect: "manual"` with every hop's address checked again
 * (at most `maxRedirects`); one `timeoutMs` deadline for the whole attempt; at most
 * `responseExcerptBytes` of the response read. Never throws.
 */
export async function deliverWebhook(attempt: WebhookAttempt, env: Pick<Env, "ENVIRONMENT">, fetcher: typeof fetch): Promise<DeliveryOutcome> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, L.timeoutMs);
  const deadline = new Promise<never>((_, reject) => controller.signal.addEventListener("abort", () => reject(new Error("deadline")), { once: true }));
  deadline.catch(() => undefined);
  const wait = <T>(promise: Promise<T>) => Promise.race([promise, deadline]);
  const failed = (error: string, permanent = false): DeliveryOutcome => ({ status: null, durationMs: elapsed(), response: "", error, permanent });
  try {
    const headers = {
      "content-type": "application/json",
      "user-agent": L.userAgent,
      [L.eventIdHeader.toLowerCase()]: attempt.eventId,
      [L.signatureHeader.toLowerCase()]: await signWebhook(attempt.secret, attempt.body, Date.now() / 1000),
    };
    let url = attempt.url;
    for (let redirects = 0; ; redirects++) {
      const hop = await wait(checkWebhookAddress(url, env, fetcher));
      if (!hop.ok) return failed(redirects === 0 ? hop.error : M.redirectRefused, hop.reason !== "unresolvable");
      const response = await wait(fetcher(hop.url, { method: "POST", body: attempt.body, headers, redirect: "manual", signal: controller.signal }));
      if (redirectStatuses.has(response.status)) {
        const location = response.headers.get("location");
        response.body?.cancel().catch(() => undefined);
        if (!location) return { status: response.status, durationMs: elapsed(), response: "", error: M.redirectRefused };
        if (redirects >= L.maxRedirects) return failed(M.tooManyRedirects(L.maxRedirects), true);
        try {
          url = new URL(location, hop.url).href;
        } catch {
          return failed(M.redirectRefused, true);
        }
        continue;
      }
      const excerpt = await wait(readExcerpt(response, L.responseExcerptBytes));
      return { status: response.status, durationMs: elapsed(), response: excerpt, retryAfter: response.headers.get("retry-after") };
    }
  } catch {
    return failed(timedOut ? M.timedOut(Math.round(L.timeoutMs / 1000)) : M.networkError);
  } finally {
    clearTimeout(timer);
  }
}

/** The response body's first `max` bytes as text; the rest is never read (the stream is cancelled). */
async function readExcerpt(response: Response, max: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
    if (at >= bytes.length) break;
  }
  return new TextDecoder().decode(bytes);
}
