import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { webhookLimits as L, webhooksResponse } from "../../contract";
import type { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { NEXT_DUE_SQL, OVERDUE_SQL, WebhookStore } from "../../worker/assistant/webhook-store";
import { HubWebhooks, SWEEP_GRACE_MS } from "../../worker/assistant/hub-webhooks";
import type { Env } from "../../worker/env";
import { call, expectError, json } from "./helpers";
import { hubRows } from "./public-assistants-helpers";
import { consume, deliveriesOf, hookedAssistant, hooksPath, keptQueue, receiver } from "./webhooks-helpers";
import { startSession } from "./widget-helpers";
import { serverMessages } from "../../contract";

afterEach(() => vi.restoreAllMocks());

describe("webhooks: ownership, secrets, bounds", () => {
  it("another owner's assistant or webhook ids answer 404 on every route, and change nothing", async () => {
    const a = await hookedAssistant(["conversation.started"]);
    const b = await hookedAssistant(["conversation.started"]);
    const [delivery] = await (async () => {
      await call(hooksPath(a.assistant._id, `/${a.webhook.id}/test`), { token: a.token, method: "POST" });
      return deliveriesOf(a.token, a.assistant._id, a.webhook.id);
    })();
    const routes: [string, string, unknown?][] = [
      ["GET", ""],
      ["POST", "", { url: receiver().url, events: ["lead.created"] }],
      ["PATCH", `/${a.webhook.id}`, { enabled: false }],
      ["DELETE", `/${a.webhook.id}`],
      ["POST", `/${a.webhook.id}/test`],
      ["GET", `/${a.webhook.id}/deliveries`],
      ["POST", `/${a.webhook.id}/deliveries/${delivery!.id}/resend`],
      ["POST", `/${a.webhook.id}/rotate-secret`],
    ];
    for (const [method, path, body] of routes) {
      const res = await call(hooksPath(a.assistant._id, path), { token: b.token, method, ...(body ? { json: body } : {}) });
      await expectError(res, 404, serverMessages.notFound);
    }
    // b's own assistant does not know a's webhook either.
    const res = await call(hooksPath(b.assistant._id, `/${a.webhook.id}`), { token: b.token, method: "DELETE" });
    expect(res.status).toBe(404);
    const list = await json(await call(hooksPath(a.assistant._id), { token: a.token }), webhooksResponse);
    expect(list.webhooks).toMatchObject([{ id: a.webhook.id, enabled: true }]);
  });

  it("the secret is shown once: never in the list, the deliveries, the logs or the stored row", async () => {
    const logged: string[] = [];
    for (const level of ["log", "warn", "error", "info"] as const) vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    const t = await hookedAssistant(["conversation.started"]);
    await startSession(t.key);
    await t.hook.waitFor(1);
    const list = await (await call(hooksPath(t.assistant._id), { token: t.token })).text();
    const deliveries = JSON.stringify(await deliveriesOf(t.token, t.assistant._id, t.webhook.id));
    const stored = JSON.stringify(await hubRows(t.assistant._id, "SELECT * FROM webhook_endpoints"));
    const body = t.secret.slice(L.secretPrefix.length);
    for (const text of [list, deliveries, stored, ...logged]) expect(text).not.toContain(body);
    expect(JSON.parse(list).webhooks[0].secretHint).toBe(`${t.secret.slice(0, L.secretPrefix.length + 4)}…`);
    expect(logged.some((line) => line.includes("tala-webhooks"))).toBe(true);
  });

  it("the outbox is bounded: past its size the oldest events go", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await runInDurableObject(getAssistantHub(env, t.assistant._id), async (instance, state) => {
      await (instance as unknown as AssistantHub).history().count();
      const store = new WebhookStore(state.storage);
      // The alarm may have moved some out already: measured from what is there now.
      state.storage.sql.exec("DELETE FROM webhook_outbox");
      let dropped = 0;
      for (let i = 0; i < 12; i++) dropped += store.addToOutbox({ eventId: `evt_${i}`, type: "conversation.started", createdAt: i, body: "{}" }, [t.webhook.id], 5);
      expect(store.outboxSize()).toBe(5);
      expect(dropped).toBe(7);
      const kept = state.storage.sql.exec("SELECT event_id FROM webhook_outbox ORDER BY seq").toArray().map((r) => r.event_id);
      expect(kept).toEqual(["evt_7", "evt_8", "evt_9", "evt_10", "evt_11"]);
    });
  });

  it("only finished deliveries are pruned past deliveriesKept: a burst (or an endpoint down a while) loses no event waiting to go", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await runInDurableObject(getAssistantHub(env, t.assistant._id), async (instance, state) => {
      await (instance as unknown as AssistantHub).history().count();
      const store = new WebhookStore(state.storage);
      const waiting = L.deliveriesKept + 50;
      for (let i = 0; i < waiting; i++) {
        store.putEvent({ eventId: `evt_b${i}`, type: "conversation.started", createdAt: i, body: "{}" });
        store.insertDelivery({ id: `whd_b${i}`, endpointId: t.webhook.id, eventId: `evt_b${i}`, type: "conversation.started", createdAt: 1_000 + i });
      }
      // Every one still waits to be sent, with its body.
      expect(store.delivery("whd_b0")).toMatchObject({ status: "pending" });
      expect(store.eventBody("evt_b0")).toBe("{}");
      // Once sent, the oldest records go at the next insert: the newest deliveriesKept stay.
      state.storage.sql.exec("UPDATE webhook_deliveries SET status = 'delivered' WHERE id LIKE 'whd_b%'");
      store.insertDelivery({ id: "whd_last", endpointId: t.webhook.id, eventId: "evt_b0", type: "conversation.started", createdAt: 5_000 });
      const count = Number(state.storage.sql.exec("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?", t.webhook.id).one().n);
      expect(count).toBe(L.deliveriesKept);
      expect(store.delivery("whd_b0")).toBeNull();
      expect(store.delivery("whd_last")).toMatchObject({ status: "pending" });
      // Waiting ones are bounded too (the outbox's size): past it the oldest go.
      state.storage.sql.exec("UPDATE webhook_deliveries SET status = 'pending'");
      store.insertDelivery({ id: "whd_over", endpointId: t.webhook.id, eventId: "evt_b0", type: "conversation.started", createdAt: 6_000 }, 3);
      const left = state.storage.sql.exec("SELECT id FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at", t.webhook.id).toArray().map((r) => r.id);
      expect(left).toEqual(["whd_b249", "whd_last", "whd_over"]);
    });
  });

  it("a deleted assistant's waiting delivery is acked and sends nothing", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await t.hook.script([{ status: 503 }]);
    const res = await call(hooksPath(t.assistant._id, `/${t.webhook.id}/test`), { token: t.token, method: "POST" });
    const { delivery } = (await res.json()) as { delivery: { id: string } };
    await t.hook.waitFor(1);
    // Failed once: a retry is waiting in the queue when the assistant goes.
    for (let i = 0; i < 100 && (await deliveriesOf(t.token, t.assistant._id, t.webhook.id))[0]?.status !== "retrying"; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await deliveriesOf(t.token, t.assistant._id, t.webhook.id))[0]?.status).toBe("retrying");
    expect((await call(`/api/public-assistants/${t.assistant._id}`, { token: t.token, method: "DELETE" })).status).toBe(204);
    expect(await consume(t.assistant._id, delivery.id)).toEqual({ outcome: "acked", resent: [] });
    expect(await t.hook.requests()).toHaveLength(1);
  });

  it("a redelivered message (at-least-once) before its retry is due sends nothing, and is acked", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await t.hook.script([{ status: 500 }]);
    await startSession(t.key);
    const [retrying] = await waitFor(t, (d) => d.status === "retrying");
    expect(retrying).toMatchObject({ status: "retrying", attempts: 1 });
    // The queue brings the first message back (its ack was lost): the retry's own message is still waiting.
    expect(await consume(t.assistant._id, retrying!.id)).toEqual({ outcome: "acked", resent: [] });
    expect(await t.hook.requests()).toHaveLength(1);
    expect((await deliveriesOf(t.token, t.assistant._id, t.webhook.id))[0]).toMatchObject({ status: "retrying", attempts: 1 });
  });

  it("the same message consumed twice at once sends once; the copy waits for the attempt in flight", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await t.hook.script([{ status: 500 }]);
    await startSession(t.key);
    const [retrying] = await waitFor(t, (d) => d.status === "retrying");
    const later = Date.now() + 60_000;
    const slow = (async (input: RequestInfo | URL, init?: RequestInit) => {
      await new Promise((r) => setTimeout(r, 300));
      return fetch(input, init);
    }) as typeof fetch;
    const runs = await Promise.all([1, 2].map(() => consume(t.assistant._id, retrying!.id, { now: () => later, fetcher: slow })));
    expect(await t.hook.requests()).toHaveLength(2);
    // Both acked: the one that delivered, and the copy, sent again as a new message for when the lease ends.
    expect(runs.map((r) => r.outcome)).toEqual(["acked", "acked"]);
    const waited = runs.flatMap((r) => r.resent);
    expect(waited).toHaveLength(1);
    expect(waited[0]!.body).toEqual({ assistantId: t.assistant._id, deliveryId: retrying!.id });
    expect(waited[0]!.delaySeconds).toBeGreaterThan(0);
    expect(waited[0]!.delaySeconds).toBeLessThanOrEqual(Math.ceil(L.attemptLeaseMs / 1000));
    expect((await deliveriesOf(t.token, t.assistant._id, t.webhook.id))[0]).toMatchObject({ status: "delivered", attempts: 2 });
    // The copy comes back after the lease: the delivery is done, so it is acked and sends nothing.
    expect(await consume(t.assistant._id, retrying!.id, { now: () => later + L.attemptLeaseMs })).toEqual({ outcome: "acked", resent: [] });
    expect(await t.hook.requests()).toHaveLength(2);
  });

  it("an attempt whose consumer died (no report) is tried again once its lease has passed", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await t.hook.script([{ status: 500 }]);
    await startSession(t.key);
    const [retrying] = await waitFor(t, (d) => d.status === "retrying");
    const later = Date.now() + 60_000;
    const hub = getAssistantHub(env, t.assistant._id);
    // A consumer took the attempt and never reported.
    const taken = await hub.webhooks().attempt({ deliveryId: retrying!.id, now: later });
    expect(taken).toMatchObject({ attempt: 2 });
    const during = await consume(t.assistant._id, retrying!.id, { now: () => later + 1000 });
    expect(during.outcome).toBe("acked");
    expect(during.resent).toEqual([{ body: { assistantId: t.assistant._id, deliveryId: retrying!.id }, delaySeconds: expect.any(Number) }]);
    expect(await t.hook.requests()).toHaveLength(1);
    expect((await consume(t.assistant._id, retrying!.id, { now: () => later + L.attemptLeaseMs + 1000 })).outcome).toBe("acked");
    expect(await t.hook.requests()).toHaveLength(2);
    expect((await deliveriesOf(t.token, t.assistant._id, t.webhook.id))[0]).toMatchObject({ status: "delivered", attempts: 3 });
  });

  it("a redirect is followed locally with the address checked again, and the event id kept", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    const target = receiver();
    await t.hook.script([{ redirect: target.url, status: 307 }]);
    await startSession(t.key);
    const [got] = await target.waitFor(1);
    expect(got!.method).toBe("POST");
    expect(got!.headers[L.eventIdHeader.toLowerCase()]).toBe(JSON.parse(got!.body).id);
  });

  it("a delivery whose queue message was lost is queued again by the sweep after the grace, once, and then goes out once", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    const hub = getAssistantHub(env, t.assistant._id);
    const t0 = Date.now() - 60 * 60 * 1000;
    // Two deliveries handed to the queue whose messages never came: one never tried, one retrying since t0.
    await runInDurableObject(hub, (_i, state) => {
      const store = new WebhookStore(state.storage);
      for (const [n, id] of ["whd_lost", "whd_lost_retry"].entries()) {
        const body = JSON.stringify({ id: `evt_lost${n}`, type: "conversation.started", createdAt: t0, assistantId: t.assistant._id, data: { sessionId: `s${n}` } });
        store.putEvent({ eventId: `evt_lost${n}`, type: "conversation.started", createdAt: t0, body });
        store.insertDelivery({ id, endpointId: t.webhook.id, eventId: `evt_lost${n}`, type: "conversation.started", createdAt: t0 });
      }
      store.markQueued(["whd_lost", "whd_lost_retry"]);
      state.storage.sql.exec("UPDATE webhook_deliveries SET status = 'retrying', attempts = 1, first_attempt_at = ?, next_attempt_at = ? WHERE id = 'whd_lost_retry'", t0, t0 + 10 * 60 * 1000);
    });
    const sweepAt = async (now: number) => {
      const kept = keptQueue();
      await runInDurableObject(hub, async (_i, state) => {
        await new HubWebhooks(t.assistant._id, state.storage, { ...env, WEBHOOK_QUEUE: kept.queue } as unknown as Env, async () => {}).flush(now);
      });
      return kept.sent.map((m) => m.body.deliveryId).sort();
    };
    // Within the grace of their due times: nothing yet (the retry was due at t0 + 10 min).
    expect(await sweepAt(t0 + SWEEP_GRACE_MS - 1000)).toEqual([]);
    const s2 = t0 + 10 * 60 * 1000 + SWEEP_GRACE_MS - 1000;
    expect(await sweepAt(s2)).toEqual(["whd_lost"]);
    expect(await sweepAt(s2 + 2000)).toEqual(["whd_lost_retry"]);
    // Swept once: due again only a grace after the sweep, and again while its message stays lost.
    expect(await sweepAt(s2 + 3000)).toEqual([]);
    expect(await sweepAt(s2 + SWEEP_GRACE_MS + 1000)).toEqual(["whd_lost"]);
    const now = Date.now();
    // The new message is attempted (the late original finds it done), once each.
    expect((await consume(t.assistant._id, "whd_lost")).outcome).toBe("acked");
    expect((await consume(t.assistant._id, "whd_lost_retry")).outcome).toBe("acked");
    expect((await consume(t.assistant._id, "whd_lost")).outcome).toBe("acked");
    const got = await t.hook.waitFor(2);
    expect(got.map((r) => r.headers[L.eventIdHeader.toLowerCase()]).sort()).toEqual(["evt_lost0", "evt_lost1"]);
    const rows = await hubRows(t.assistant._id, "SELECT id, status, attempts FROM webhook_deliveries WHERE id LIKE 'whd_lost%' ORDER BY id");
    expect(rows).toEqual([
      { id: "whd_lost", status: "delivered", attempts: 1 },
      { id: "whd_lost_retry", status: "delivered", attempts: 2 },
    ]);
    // Finished deliveries are never swept.
    expect(await sweepAt(now + 2 * SWEEP_GRACE_MS)).toEqual([]);
    // The sweep and its next due time read the unfinished deliveries by index, never the whole table.
    const plans = await runInDurableObject(hub, (_i, state) =>
      [
        [OVERDUE_SQL, 1, 100],
        [NEXT_DUE_SQL],
      ].map(([query, ...bindings]) => state.storage.sql.exec(`EXPLAIN QUERY PLAN ${String(query)}`, ...bindings).toArray().map((row) => String(row.detail)).join("; ")),
    );
    for (const plan of plans) expect(plan).toContain("webhook_deliveries_unfinished_idx");
  });
});

async function waitFor(t: { token: string; assistant: { _id: string }; webhook: { id: string } }, ready: (d: Awaited<ReturnType<typeof deliveriesOf>>[number]) => boolean) {
  const until = Date.now() + 8000;
  for (;;) {
    const list = await deliveriesOf(t.token, t.assistant._id, t.webhook.id);
    if ((list[0] && ready(list[0])) || Date.now() > until) return list;
    await new Promise((r) => setTimeout(r, 50));
  }
}
