import { leadMessages, webhookLimits as L, webhookMessages as M, type Lead, type WidgetSource, type WebhookEventType } from "../../contract";
import { generateWebhookSecret, webhookSecretHint } from "../crypto/webhook-signature";
import type { Env } from "../env";
import type { WebhookQueueMessage } from "../queues/messages";
import { openAssistantSecret, sealAssistantSecret } from "../services/public-assistants/api-key-encryption";
import type { VisitorMessageRow, VisitorSessionRow, VisitorStore } from "./visitor-store";
import { decideAfterAttempt, type AttemptDecision } from "./webhook-retry";
import { WebhookStore, type DeliveryRow, type EndpointRow } from "./webhook-store";

/**
 * The assistant's object's side of signed webhooks: the recorder (`record`: an outbox row only
 * when an enabled endpoint subscribes to the type; the subscriptions are kept in memory, rebuilt
 * from SQLite at start and after every change of the endpoints, so a turn with no webhooks pays
 * a map look-up), the `webhook-outbox` alarm's job (`flush`: outbox → deliveries → the
 * `tala-webhooks` queue, and the sweep of deliveries whose message was lost), and the decisions on each attempt the queue consumer makes (`attempt`,
 * `report`: done, retry in N s, give up, disable). No import from `cloudflare:workers`.
 */

/** What the consumer needs for one attempt: never stored or logged by it. */
export interface WebhookAttempt {
  deliveryId: string;
  attempt: number;
  eventId: string;
  url: string;
  secret: string;
  body: string;
}

/** Another attempt of this delivery is in flight: the consumer retries the message after `wait` seconds. */
export interface WebhookWait {
  wait: number;
}

/** The consumer's report of one attempt. `now` is the caller's clock (Date.now() in the consumer). */
export interface WebhookReport {
  deliveryId: string;
  attempt: number;
  now: number;
  status: number | null;
  durationMs: number | null;
  /** The response's first bytes (the consumer reads at most webhookLimits.responseExcerptBytes). */
  response: string;
  error?: string | undefined;
  retryAfter?: string | null | undefined;
  permanent?: boolean | undefined;
}

/** The hub's answer: what the consumer does with the message, and the owner's e-mail when the endpoint was just disabled. */
export interface WebhookReportAnswer {
  decision: AttemptDecision | { kind: "stale" };
  disabled: { userId: string; assistantName: string; url: string; hours: number; appOrigin: string | null } | null;
}

type Visitor = { id: string; name?: string; email?: string } | undefined;

/** Deliveries handed to the queue per `sendBatch` (the platform's limit is 100), and rounds per alarm run. */
const QUEUE_BATCH = 100;
const ROUNDS_PER_RUN = 10;
/**
 * The outbox alarm fires this long after the first event recorded since the last run, so a busy
 * assistant's events leave in batches (one alarm, one fan-out, one queue send for many turns)
 * rather than one alarm per turn.
 */
const BATCH_WINDOW_MS = 250;
/** How long after a queue that did not answer the alarm tries again. */
const RETRY_MS = 60_000;
/**
 * How long past its due time (its creation, its retry, its attempt's lease) a queued delivery
 * may wait for its message before the sweep queues it again: far beyond a queue's usual latency,
 * so a slow queue gets a harmless copy at most.
 */
export const SWEEP_GRACE_MS = 15 * 60_000;
/** Key-value key: the origin the owner last managed webhooks from (the disabled e-mail's link). */
export const APP_ORIGIN_KEY = "webhook-app-origin";
/** Key-value key: how many recorded events the bounded outbox dropped. */
const DROPPED_KEY = "webhook-outbox-dropped";

const encoder = new TextEncoder();
const sealContext = (assistantId: string, endpointId: string) => `webhook-secret:${assistantId}:${endpointId}`;

/** The visitor of a signed session, as events carry it (absent for an anonymous one). */
export function eventVisitor(row: Pick<VisitorSessionRow, "visitorSub" | "visitorName" | "visitorEmail">): Visitor {
  if (!row.visitorSub) return undefined;
  return { id: row.visitorSub, ...(row.visitorName ? { name: row.visitorName } : {}), ...(row.visitorEmail ? { email: row.visitorEmail } : {}) };
}

/**
 * An event's JSON body; over `maxBytes` its longest texts are halved, one at a time, until it
 * fits, and `data.truncated` says so.
 */
export function eventBody(event: { id: string; type: string; createdAt: number; assistantId: string; data: Record<string, unknown> }, maxBytes: number = L.maxBodyBytes): string {
  let body = JSON.stringify(event);
  if (encoder.encode(body).length <= maxBytes) return body;
  const data = structuredClone(event.data);
  for (let round = 0; round < 200; round++) {
    const longest = longestString(data);
    if (!longest || longest.value.length < 16) break;
    longest.set(cut(longest.value, Math.floor(longest.value.length / 2)));
    body = JSON.stringify({ ...event, data: { ...data, truncated: true } });
    if (encoder.encode(body).length <= maxBytes) return body;
  }
  return JSON.stringify({ ...event, data: { truncated: true } });
}

/** The string leaf with the most characters, and how to replace it. */
function longestString(value: unknown): { value: string; set: (text: string) => void } | null {
  let best: { value: string; set: (text: string) => void } | null = null;
  const visit = (node: unknown, depth: number) => {
    if (depth > 8 || !node || typeof node !== "object") return;
    for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
      if (typeof child === "string") {
        if (!best || child.length > best.value.length) best = { value: child, set: (text) => ((node as Record<string, unknown>)[key] = text) };
      } else visit(child, depth + 1);
    }
  };
  visit(value, 0);
  return best;
}

/** `text` cut to `chars`, never inside a surrogate pair, with an ellipsis. */
function cut(text: string, chars: number): string {
  let end = chars;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

export class HubWebhooks {
  /** Enabled endpoints' ids per event type; null until loaded. */
  private subscriptions: Map<string, string[]> | null = null;
  private readonly secrets = new Map<string, string>();

  constructor(
    private readonly assistantId: string,
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
    private readonly arm: (at: number) => Promise<void>,
  ) {}

  get store() {
    return new WebhookStore(this.storage);
  }

  /** Rebuilds the subscriptions from SQLite (at start, and after every change of the endpoints). */
  load() {
    const map = new Map<string, string[]>();
    for (const endpoint of this.store.endpoints()) {
      if (!endpoint.enabled) continue;
      for (const type of endpoint.events) map.set(type, [...(map.get(type) ?? []), endpoint.id]);
    }
    this.subscriptions = map;
  }

  /** After an erasure: nothing is subscribed any more (the next start loads again). */
  forget() {
    this.subscriptions = new Map();
    this.secrets.clear();
  }

  /** The enabled endpoints subscribed to `type` (in memory). */
  subscribers(type: string): string[] {
    if (!this.subscriptions) this.load();
    return this.subscriptions!.get(type) ?? [];
  }

  /**
   * Records one event where the thing it describes was saved: an outbox row (its body cut to
   * `maxBodyBytes`) when an enabled endpoint subscribes to `type`, and the `webhook-outbox`
   * alarm armed. Nothing at all otherwise. Never throws into the caller's step (logged).
   */
  async record(type: WebhookEventType, data: Record<string, unknown>, now = Date.now()): Promise<void> {
    try {
      const targets = this.subscribers(type);
      if (!targets.length) return;
      const eventId = newEventId();
      const body = eventBody({ id: eventId, type, createdAt: now, assistantId: this.assistantId, data });
      const dropped = this.store.addToOutbox({ eventId, type, createdAt: now, body }, targets);
      if (dropped > 0) {
        this.storage.kv.put(DROPPED_KEY, (this.storage.kv.get<number>(DROPPED_KEY) ?? 0) + dropped);
        console.warn(JSON.stringify({ event: "webhook-outbox-dropped", assistantId: this.assistantId, dropped }));
      }
      await this.arm(now + BATCH_WINDOW_MS);
    } catch (error) {
      console.error(JSON.stringify({ event: "webhook-record-failed", assistantId: this.assistantId, type, error: String(error) }));
    }
  }

  /** `lead.created` of a lead just saved: each field's value and label by key, what showed the form, the signed visitor. */
  recordLead(lead: Lead): Promise<void> {
    const fields = Object.fromEntries(lead.values.map((v) => [v.key, v.value]));
    const labels = Object.fromEntries(lead.values.map((v) => [v.key, v.label]));
    const data = { leadId: lead.id, sessionId: lead.sessionId, createdAt: lead.createdAt, fields, labels, ...(lead.trigger ? { trigger: lead.trigger } : {}), ...(lead.visitor ? { visitor: lead.visitor } : {}) };
    return this.record("lead.created", data, lead.createdAt);
  }

  /**
   * `message.answered` of a reply `finishTurn` saved: the visitor's question before it, the
   * answer, its sources and kind ("handoff" or "lead": the offer of a person or of the lead form,
   * no model; "qa": a curated answer given as is; "model" otherwise).
   */
  async recordAnswer(store: VisitorStore, sessionId: string, reply: VisitorMessageRow, sources: WidgetSource[], offers: { handoff: boolean; leadForm: boolean }): Promise<void> {
    if (!this.subscribers("message.answered").length) return;
    const session = store.session(sessionId);
    const question = store
      .messages(sessionId, 8)
      .filter((m) => m.role === "user" && m.createdAt <= reply.createdAt)
      .pop();
    const leadOffer = offers.leadForm && (Object.values(leadMessages.offerReply) as string[]).includes(reply.content);
    const kind = offers.handoff ? "handoff" : leadOffer ? "lead" : sources.length === 1 && sources[0]!.kind === "qa" ? "qa" : "model";
    await this.record("message.answered", {
      sessionId,
      question: question ? { id: question.id, content: question.content, createdAt: question.createdAt } : { id: "", content: "", createdAt: reply.createdAt },
      answer: { id: reply.id, content: reply.content, createdAt: reply.createdAt, sources: sources.map((s) => ({ name: s.name, ...("url" in s && s.url ? { url: s.url } : {}) })), kind },
      ...(session ? { visitor: eventVisitor(session) } : {}),
    });
  }

  // ── The alarm: outbox → deliveries → queue ──────────────────────────────────────────────────

  /**
   * The `webhook-outbox` job: outbox events become deliveries, deliveries not yet queued go to
   * `tala-webhooks` (100 a batch), then the sweep. More than a run's share arms the alarm again at
   * once; a queue that fails (or is not configured) is tried again in a minute.
   */
  async flush(now: number): Promise<void> {
    if (await this.drain(now)) await this.sweep(now);
  }

  /** Outbox → deliveries → queue. True when all is queued; false when it armed the alarm itself. */
  private async drain(now: number): Promise<boolean> {
    const store = this.store;
    for (let round = 0; round < ROUNDS_PER_RUN; round++) {
      store.fanOut(QUEUE_BATCH, now, newDeliveryId);
      const waiting = store.unqueued(QUEUE_BATCH);
      if (!waiting.length) return true;
      if (!(await this.enqueue(waiting.map((d) => d.id), now))) return false;
      store.markQueued(waiting.map((d) => d.id));
    }
    await this.arm(Date.now());
    return false;
  }

  /**
   * A delivery whose queue message never came back (lost, or its copies spent while this object
   * did not answer) would wait forever: one overdue by `SWEEP_GRACE_MS` is queued again and made
   * due (a late original finds it taken or done: leases keep a delivery from going twice). Then
   * the alarm is armed for the next delivery that could become overdue.
   */
  private async sweep(now: number): Promise<void> {
    const store = this.store;
    const overdue = store.overdue(now - SWEEP_GRACE_MS, QUEUE_BATCH);
    if (overdue.length) {
      const ids = overdue.map((d) => d.id);
      if (!(await this.enqueue(ids, now))) return;
      store.markDue(ids, now);
      console.warn(JSON.stringify({ event: "webhook-deliveries-swept", assistantId: this.assistantId, count: ids.length }));
    }
    await this.armSweep();
  }

  /** The alarm at the next moment a queued delivery could be overdue (kept if sooner). */
  async armSweep(): Promise<void> {
    const due = this.store.nextDue();
    if (due !== null) await this.arm(due + SWEEP_GRACE_MS);
  }

  /** One message per delivery to the queue; false (logged, the alarm armed to try again) when it failed. */
  private async enqueue(ids: string[], now: number): Promise<boolean> {
    const queue = this.env.WEBHOOK_QUEUE;
    if (!queue) {
      console.error(JSON.stringify({ event: "webhook-queue-missing", assistantId: this.assistantId }));
      await this.arm(now + RETRY_MS);
      return false;
    }
    try {
      await queue.sendBatch(ids.map((deliveryId): { body: WebhookQueueMessage } => ({ body: { assistantId: this.assistantId, deliveryId } })));
      return true;
    } catch (error) {
      console.error(JSON.stringify({ event: "webhook-queue-failed", assistantId: this.assistantId, error: String(error) }));
      await this.arm(now + RETRY_MS);
      return false;
    }
  }

  // ── The owner's endpoints ──────────────────────────────────────────────────────────────────

  /** A new endpoint (the address was checked by the caller); `too-many` past `maxPerAssistant`. */
  async create(input: { url: string; events: string[]; description: string; appOrigin?: string | undefined }, now = Date.now()) {
    if (this.store.count() >= L.maxPerAssistant) return { ok: false as const, reason: "too-many" as const };
    const id = `wh_${crypto.randomUUID().replace(/-/g, "")}`;
    const secret = generateWebhookSecret();
    const sealed = await sealAssistantSecret(this.env, sealContext(this.assistantId, id), secret);
    // Re-checked after the await: another create may have run meanwhile.
    if (this.store.count() >= L.maxPerAssistant) return { ok: false as const, reason: "too-many" as const };
    this.store.insertEndpoint({ id, url: input.url, description: input.description, events: input.events, sealed, hint: webhookSecretHint(secret), createdAt: now });
    this.noteOrigin(input.appOrigin);
    this.load();
    return { ok: true as const, endpoint: this.store.endpoint(id)!, secret };
  }

  update(id: string, patch: { url?: string | undefined; events?: string[] | undefined; description?: string | undefined; enabled?: boolean | undefined; appOrigin?: string | undefined }): EndpointRow | null {
    if (!this.store.endpoint(id)) return null;
    this.store.patchEndpoint(id, patch);
    this.noteOrigin(patch.appOrigin);
    this.load();
    return this.store.endpoint(id);
  }

  remove(id: string): boolean {
    if (!this.store.endpoint(id)) return false;
    this.store.deleteEndpoint(id);
    this.load();
    return true;
  }

  async rotateSecret(id: string): Promise<string | null> {
    if (!this.store.endpoint(id)) return null;
    const secret = generateWebhookSecret();
    const sealed = await sealAssistantSecret(this.env, sealContext(this.assistantId, id), secret);
    if (!this.store.endpoint(id)) return null;
    this.store.setSecret(id, sealed, webhookSecretHint(secret));
    return secret;
  }

  /** A `webhook.test` event to that endpoint only, delivered by the queue like any other. */
  async test(id: string, now = Date.now()) {
    if (!this.store.endpoint(id)) return null;
    const eventId = newEventId();
    const body = eventBody({ id: eventId, type: L.testEvent, createdAt: now, assistantId: this.assistantId, data: { webhookId: id, message: M.testEventMessage } });
    const deliveryId = newDeliveryId();
    this.storage.transactionSync(() => {
      this.store.putEvent({ eventId, type: L.testEvent, createdAt: now, body });
      this.store.insertDelivery({ id: deliveryId, endpointId: id, eventId, type: L.testEvent, createdAt: now });
    });
    await this.arm(now);
    return this.store.delivery(deliveryId);
  }

  /** The same event again (its id and body), as a new delivery. */
  async resend(id: string, deliveryId: string, now = Date.now()) {
    const store = this.store;
    const old = store.delivery(deliveryId);
    if (!store.endpoint(id) || !old || old.endpointId !== id || store.eventBody(old.eventId) === null) return null;
    const fresh = newDeliveryId();
    store.insertDelivery({ id: fresh, endpointId: id, eventId: old.eventId, type: old.type, createdAt: now });
    await this.arm(now);
    return store.delivery(fresh);
  }

  // ── The consumer's attempts ────────────────────────────────────────────────────────────────

  /**
   * One attempt of a delivery: null when it has nothing to send (the delivery is done, failed or
   * gone, its endpoint deleted or off, its secret unreadable, or a retry not due yet: a copy of an
   * earlier message, the retry's own message is in the queue); `wait` when another attempt is in
   * flight (its lease, `attemptLeaseMs`, not over: the copy comes back after it). Counts the
   * attempt and takes its lease, so the queue's copies of a message never send twice.
   */
  async attempt(deliveryId: string, now: number): Promise<WebhookAttempt | WebhookWait | null> {
    const store = this.store;
    const delivery = store.delivery(deliveryId);
    if (!delivery || (delivery.status !== "pending" && delivery.status !== "retrying")) return null;
    const early = notDue(delivery, now);
    if (early) return early === "copy" ? null : early;
    const endpoint = store.endpoint(delivery.endpointId);
    const body = store.eventBody(delivery.eventId);
    if (!endpoint || !endpoint.enabled || body === null) {
      store.saveAttempt(deliveryId, { status: "failed", responseStatus: null, durationMs: null, response: "", error: M.endpointOff, nextAttemptAt: null });
      return null;
    }
    const secret = await this.openSecret(endpoint);
    if (secret === null) return null;
    // Re-read after the await: the owner may have deleted or turned it off meanwhile.
    const current = store.delivery(deliveryId);
    if (!current || (current.status !== "pending" && current.status !== "retrying") || !store.endpoint(endpoint.id)?.enabled) return null;
    const raced = notDue(current, now);
    if (raced) return raced === "copy" ? null : raced;
    store.beginAttempt(deliveryId, now, now + L.attemptLeaseMs);
    // A consumer that dies now leaves the delivery to its message's copy, or else to the sweep.
    await this.arm(now + L.attemptLeaseMs + SWEEP_GRACE_MS);
    return { deliveryId, attempt: current.attempts + 1, eventId: delivery.eventId, url: endpoint.url, secret, body };
  }

  /**
   * The outcome of an attempt: saved on the delivery and the endpoint's row, then the decision.
   * A delivery given up (its window passed, or a failure no retry changes) while the endpoint's
   * streak of failures is older than `disableAfterMs` turns the endpoint off (its pending
   * deliveries fail) and asks for the owner's e-mail once. A report of an earlier attempt is `stale`.
   */
  report(input: WebhookReport, owner: { userId: string; assistantName: string }): WebhookReportAnswer {
    const store = this.store;
    const delivery = store.delivery(input.deliveryId);
    if (!delivery || delivery.attempts !== input.attempt || (delivery.status !== "pending" && delivery.status !== "retrying")) return { decision: { kind: "stale" }, disabled: null };
    const decision = decideAfterAttempt({ outcome: input, attempt: input.attempt, firstAttemptAt: delivery.firstAttemptAt ?? input.now, now: input.now });
    const status = decision.kind === "done" ? "delivered" : decision.kind === "retry" ? "retrying" : "failed";
    store.saveAttempt(input.deliveryId, {
      status,
      responseStatus: input.status,
      durationMs: input.durationMs === null ? null : Math.max(0, Math.round(input.durationMs)),
      response: input.response.slice(0, L.responseExcerptBytes),
      error: input.error ? input.error.slice(0, 500) : null,
      nextAttemptAt: decision.kind === "retry" ? input.now + decision.delaySeconds * 1000 : null,
    });
    const ok = decision.kind === "done";
    store.noteOutcome(delivery.endpointId, ok, input.status, input.now);
    const endpoint = store.endpoint(delivery.endpointId);
    // Only a delivery given up ends the endpoint: a failure that will be retried may yet succeed (a
    // quiet endpoint's one blip a day after its last failure is not a day of failures).
    if (ok || decision.kind === "retry" || !endpoint || !endpoint.enabled || endpoint.failingSince === null || input.now - endpoint.failingSince < L.disableAfterMs) {
      return { decision, disabled: null };
    }
    const hours = Math.round(L.disableAfterMs / 3_600_000);
    const emailDue = store.disable(endpoint.id, M.disabledReason(hours), input.now);
    this.load();
    const disabled = emailDue ? { ...owner, url: endpoint.url, hours, appOrigin: this.storage.kv.get<string>(APP_ORIGIN_KEY) ?? null } : null;
    return { decision: { kind: "gave-up" }, disabled };
  }

  private noteOrigin(origin: string | undefined) {
    if (origin && this.storage.kv.get(APP_ORIGIN_KEY) !== origin) this.storage.kv.put(APP_ORIGIN_KEY, origin);
  }

  /** The endpoint's secret, opened once per sealed value (a rotation changes the sealed value). Null (logged) when it cannot be opened. */
  private async openSecret(endpoint: EndpointRow): Promise<string | null> {
    const cached = this.secrets.get(endpoint.sealed);
    if (cached) return cached;
    try {
      const secret = await openAssistantSecret(this.env, sealContext(this.assistantId, endpoint.id), endpoint.sealed);
      if (secret === null) throw new Error("sealed under another key");
      if (this.secrets.size >= L.maxPerAssistant * 2) this.secrets.clear();
      this.secrets.set(endpoint.sealed, secret);
      return secret;
    } catch (error) {
      console.error(JSON.stringify({ event: "webhook-secret-unreadable", assistantId: this.assistantId, webhookId: endpoint.id, error: String(error) }));
      return null;
    }
  }
}

/** How much earlier than its `nextAttemptAt` a retry may start (the queue's delay and the clocks are not exact). */
const DUE_SLACK_MS = 5_000;

/**
 * Whether a delivery may be attempted at `now`, from its state alone: never tried, or its next
 * attempt due. A `pending` one with a next time is an attempt in flight (its lease): the caller waits
 * until the lease ends. A `retrying` one not due yet is a copy of an earlier message: nothing.
 */
function notDue(delivery: DeliveryRow, now: number): WebhookWait | "copy" | null {
  if (delivery.nextAttemptAt === null || now >= delivery.nextAttemptAt - DUE_SLACK_MS) return null;
  if (delivery.status === "pending") return { wait: Math.max(1, Math.ceil((delivery.nextAttemptAt - now) / 1000)) };
  return "copy";
}

const newEventId = () => `evt_${crypto.randomUUID().replace(/-/g, "")}`;
const newDeliveryId = () => `whd_${crypto.randomUUID().replace(/-/g, "")}`;
