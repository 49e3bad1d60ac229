import { RpcTarget } from "cloudflare:workers";
import { webhookLimits as L, type Webhook, type WebhookDelivery } from "../../../contract";
import type { Gone } from "../gone";
import type { HubCore } from "../hub-core";
import type { WebhookAttempt, WebhookReport, WebhookReportAnswer, WebhookWait } from "../hub-webhooks";
import { toWebhook, toWebhookDelivery } from "../webhook-store";
import { guarded, whenOpen } from "./run";

type Missing = { ok: false; reason: "not-found" };
type Failed = { ok: false; reason: "failed" };
const missing: Missing = { ok: false, reason: "not-found" };

/**
 * `hub.webhooks()`: the owner's webhook endpoints and their deliveries (the caller checked
 * ownership in D1 and the address's rules), and the queue consumer's two calls per attempt
 * (`attempt`, `report`). Secrets leave only in `create` and `rotateSecret` (shown once) and in
 * `attempt` (to sign). Every method answers `gone` once the assistant was deleted.
 */
export class WebhooksFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  list(): Promise<{ ok: true; webhooks: Webhook[] } | Failed | Gone> {
    return guarded(this.#core, "webhooks.list", () => ({ ok: true as const, webhooks: this.#core.webhooks.store.endpoints().map(toWebhook) }));
  }

  create(input: { url: string; events: string[]; description: string; appOrigin?: string }): Promise<{ ok: true; webhook: Webhook; secret: string } | { ok: false; reason: "too-many" } | Failed | Gone> {
    return guarded(this.#core, "webhooks.create", async () => {
      const created = await this.#core.webhooks.create(input);
      return created.ok ? { ok: true as const, webhook: toWebhook(created.endpoint), secret: created.secret } : created;
    });
  }

  update(id: string, patch: { url?: string; events?: string[]; description?: string; enabled?: boolean; appOrigin?: string }): Promise<{ ok: true; webhook: Webhook } | Missing | Failed | Gone> {
    return guarded(this.#core, "webhooks.update", () => {
      const row = this.#core.webhooks.update(id, patch);
      return row ? { ok: true as const, webhook: toWebhook(row) } : missing;
    });
  }

  remove(id: string): Promise<{ ok: true } | Missing | Failed | Gone> {
    return guarded(this.#core, "webhooks.remove", () => (this.#core.webhooks.remove(id) ? { ok: true as const } : missing));
  }

  rotateSecret(id: string): Promise<{ ok: true; secret: string } | Missing | Failed | Gone> {
    return guarded(this.#core, "webhooks.rotateSecret", async () => {
      const secret = await this.#core.webhooks.rotateSecret(id);
      return secret ? { ok: true as const, secret } : missing;
    });
  }

  test(id: string): Promise<{ ok: true; delivery: WebhookDelivery } | Missing | Failed | Gone> {
    return guarded(this.#core, "webhooks.test", async () => {
      const delivery = await this.#core.webhooks.test(id);
      return delivery ? { ok: true as const, delivery: toWebhookDelivery(delivery) } : missing;
    });
  }

  /** The endpoint's deliveries, newest first (one page). */
  deliveries(id: string): Promise<{ ok: true; deliveries: WebhookDelivery[] } | Missing | Failed | Gone> {
    return guarded(this.#core, "webhooks.deliveries", () => {
      const store = this.#core.webhooks.store;
      if (!store.endpoint(id)) return missing;
      return { ok: true as const, deliveries: store.deliveries(id, L.deliveriesPageSize).map(toWebhookDelivery) };
    });
  }

  resend(id: string, deliveryId: string): Promise<{ ok: true; delivery: WebhookDelivery } | { ok: false; reason: "not-found" | "no-delivery" } | Failed | Gone> {
    return guarded(this.#core, "webhooks.resend", async () => {
      if (!this.#core.webhooks.store.endpoint(id)) return missing;
      const delivery = await this.#core.webhooks.resend(id, deliveryId);
      return delivery ? { ok: true as const, delivery: toWebhookDelivery(delivery) } : { ok: false as const, reason: "no-delivery" as const };
    });
  }

  /** The queue consumer: what to send for this delivery now (null: nothing, ack the message; `wait`: retry it after that many seconds). */
  attempt(input: { deliveryId: string; now: number }): Promise<WebhookAttempt | WebhookWait | null | Gone> {
    return whenOpen(this.#core, () => this.#core.webhooks.attempt(input.deliveryId, input.now));
  }

  /** The queue consumer: how the attempt went; the object decides what follows. */
  report(input: WebhookReport): Promise<WebhookReportAnswer | Gone> {
    return whenOpen(this.#core, async (opened) => {
      const { record } = opened.assistant;
      const answer = this.#core.webhooks.report(input, { userId: record.userId, assistantName: record.name });
      // A retry's message is the consumer's to send; should it be lost, the sweep finds the delivery.
      if (answer.decision.kind === "retry") await this.#core.webhooks.armSweep();
      return answer;
    });
  }
}
