import { describe, expect, it } from "vitest";
import {
  deliveryResponse,
  handoffMessages,
  leadMessages,
  webhookEventData,
  webhookEventSchema,
  webhookLimits as L,
  webhookMessages as M,
  webhookResponse,
  webhookSecretResponse,
  webhooksResponse,
} from "../../contract";
import { verifyWebhook } from "../../worker/crypto/webhook-signature";
import { askedForPerson, handoffConversation } from "./handoff-helpers";
import { call, json, outbox } from "./helpers";
import { ask, rated } from "./insights-helpers";
import { leadConversation, submittedLead } from "./lead-helpers";
import { hubRows } from "./public-assistants-helpers";
import { consume, createWebhook, deliveriesOf, hookedAssistant, hooksPath, receiver, type Received } from "./webhooks-helpers";
import { startSession } from "./widget-helpers";

const signatureOf = (r: Received) => r.headers[L.signatureHeader.toLowerCase()]!;
const eventIdOf = (r: Received) => r.headers[L.eventIdHeader.toLowerCase()];
const HOUR = 60 * 60 * 1000;

describe("webhooks: recorded events reach the receiver, signed", () => {
  it("conversation.started goes out through the outbox, the queue and the consumer", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    const { sessionId } = await startSession(t.key);
    const [got] = await t.hook.waitFor(1);
    expect(got, "delivered").toBeDefined();
    const event = webhookEventSchema.parse(JSON.parse(got!.body));
    expect(event).toMatchObject({ type: "conversation.started", assistantId: t.assistant._id });
    expect(webhookEventData["conversation.started"].parse(event.data)).toMatchObject({ sessionId, locale: "en-US", referrer: "https://shop.example/help" });
    expect(eventIdOf(got!)).toBe(event.id);
    expect(got!.headers["user-agent"]).toBe(L.userAgent);
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(await verifyWebhook(t.secret, got!.body, signatureOf(got!), Date.now() / 1000)).toBe(true);
    expect(await verifyWebhook(`${t.secret}x`, got!.body, signatureOf(got!), Date.now() / 1000)).toBe(false);
    const deliveries = await deliveriesOf(t.token, t.assistant._id, t.webhook.id);
    expect(deliveries).toMatchObject([{ eventId: event.id, type: "conversation.started", status: "delivered", attempts: 1, responseStatus: 200, response: "ok" }]);
    const list = await json(await call(hooksPath(t.assistant._id), { token: t.token }), webhooksResponse);
    expect(list.webhooks[0]).toMatchObject({ id: t.webhook.id, enabled: true, lastDelivery: { ok: true, status: 200 } });
  });

  it("message.answered and feedback.created carry the turn and the rating; unsubscribed types send nothing", async () => {
    const t = await hookedAssistant(["message.answered", "feedback.created"]);
    const { sessionId } = await startSession(t.key);
    const turn = await ask(t.key, sessionId, "What is your refund policy?");
    await rated(t.key, sessionId, turn.answerId, "up");
    const got = await t.hook.waitFor(2);
    const events = got.map((r) => webhookEventSchema.parse(JSON.parse(r.body)));
    expect(events.map((e) => e.type).sort()).toEqual(["feedback.created", "message.answered"]);
    const answered = webhookEventData["message.answered"].parse(events.find((e) => e.type === "message.answered")!.data);
    expect(answered).toMatchObject({ sessionId, question: { id: turn.questionId, content: "What is your refund policy?" }, answer: { id: turn.answerId, kind: "model" } });
    expect(answered.answer.content.length).toBeGreaterThan(0);
    expect(webhookEventData["feedback.created"].parse(events.find((e) => e.type === "feedback.created")!.data)).toMatchObject({ sessionId, messageId: turn.answerId, rating: "up" });
    // conversation.started was not subscribed: nothing else came.
    await new Promise((r) => setTimeout(r, 300));
    expect(await t.hook.requests()).toHaveLength(2);
  });

  it("a reply with no model (the offer of a person) is message.answered too, of kind handoff", async () => {
    const t = await handoffConversation({ visitorAction: true });
    const hook = receiver();
    await createWebhook(t.token, t.assistantId, { url: hook.url, events: ["message.answered"] });
    await ask(t.key, t.sessionId, "I want to talk to a human");
    const [got] = await hook.waitFor(1);
    const data = webhookEventData["message.answered"].parse(webhookEventSchema.parse(JSON.parse(got!.body)).data);
    expect(data).toMatchObject({ sessionId: t.sessionId, question: { content: "I want to talk to a human" }, answer: { kind: "handoff", content: handoffMessages.offerReply.en } });
  });

  it("lead.created carries each field by key with its label; the lead form's offer is message.answered of kind lead", async () => {
    const t = await leadConversation({ emailOwner: false });
    const hook = receiver();
    await createWebhook(t.token, t.assistantId, { url: hook.url, events: ["lead.created", "message.answered"] });
    await ask(t.key, t.sessionId, "Please email me");
    const lead = await submittedLead(t.key, t.sessionId, { name: "Élise Martin", email: "elise@example.fr" }, "asked");
    const events = (await hook.waitFor(2)).map((r) => webhookEventSchema.parse(JSON.parse(r.body)));
    const created = webhookEventData["lead.created"].parse(events.find((e) => e.type === "lead.created")!.data);
    expect(created).toMatchObject({ leadId: lead.id, sessionId: t.sessionId, createdAt: lead.createdAt, fields: { name: "Élise Martin", email: "elise@example.fr" }, trigger: "asked" });
    expect(Object.keys(created.labels).sort()).toEqual(["email", "name"]);
    const answered = webhookEventData["message.answered"].parse(events.find((e) => e.type === "message.answered")!.data);
    expect(answered.answer).toMatchObject({ kind: "lead", content: leadMessages.offerReply.en });
  });

  it("handoff.requested says whether an address was left", async () => {
    const t = await handoffConversation({ visitorAction: true });
    const hook = receiver();
    await createWebhook(t.token, t.assistantId, { url: hook.url, events: ["handoff.requested"] });
    await askedForPerson(t.key, t.sessionId, { email: "visitor@example.com" });
    const [got] = await hook.waitFor(1);
    const event = webhookEventSchema.parse(JSON.parse(got!.body));
    expect(event.type).toBe("handoff.requested");
    expect(webhookEventData["handoff.requested"].parse(event.data)).toMatchObject({ sessionId: t.sessionId, emailLeft: true });
  });

  it("a test event goes to that endpoint only; a resend keeps the event id; a rotated secret signs from then on", async () => {
    const t = await hookedAssistant(["lead.created"]);
    const other = receiver();
    await createWebhook(t.token, t.assistant._id, { url: other.url, events: ["lead.created"] });
    const res = await call(hooksPath(t.assistant._id, `/${t.webhook.id}/test`), { token: t.token, method: "POST" });
    expect(res.status, await res.clone().text()).toBe(202);
    const { delivery } = await json(res, deliveryResponse);
    expect(delivery).toMatchObject({ type: L.testEvent, status: "pending", attempts: 0 });
    const [first] = await t.hook.waitFor(1);
    const event = webhookEventSchema.parse(JSON.parse(first!.body));
    expect(event).toMatchObject({ id: delivery.eventId, type: L.testEvent, data: { webhookId: t.webhook.id, message: M.testEventMessage } });

    const rotated = await json(await call(hooksPath(t.assistant._id, `/${t.webhook.id}/rotate-secret`), { token: t.token, method: "POST" }), webhookSecretResponse);
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.secret).not.toBe(t.secret);
    const resend = await call(hooksPath(t.assistant._id, `/${t.webhook.id}/deliveries/${delivery.id}/resend`), { token: t.token, method: "POST" });
    expect(resend.status, await resend.clone().text()).toBe(202);
    const again = (await json(resend, deliveryResponse)).delivery;
    expect(again.id).not.toBe(delivery.id);
    expect(again.eventId).toBe(delivery.eventId);
    const [, second] = await t.hook.waitFor(2);
    expect(second!.body).toBe(first!.body);
    expect(eventIdOf(second!)).toBe(event.id);
    expect(await verifyWebhook(rotated.secret, second!.body, signatureOf(second!), Date.now() / 1000)).toBe(true);
    expect(await verifyWebhook(t.secret, second!.body, signatureOf(second!), Date.now() / 1000)).toBe(false);
    expect(await other.requests()).toEqual([]);
  });

  it("PATCH changes the address, events, description, and turns it off and on", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    const moved = receiver();
    const patch = (body: unknown) => call(hooksPath(t.assistant._id, `/${t.webhook.id}`), { token: t.token, method: "PATCH", json: body });
    const res = await patch({ url: moved.url, events: ["conversation.started", "feedback.created"], description: "CRM" });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res, webhookResponse)).webhook).toMatchObject({ url: moved.url, events: ["conversation.started", "feedback.created"], description: "CRM", enabled: true });
    expect((await json(await patch({ enabled: false }), webhookResponse)).webhook.enabled).toBe(false);
    await startSession(t.key);
    expect((await json(await patch({ enabled: true }), webhookResponse)).webhook.enabled).toBe(true);
    await startSession(t.key);
    expect(await moved.waitFor(1)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await moved.requests()).toHaveLength(1);
    expect(await t.hook.requests()).toEqual([]);
    const del = await call(hooksPath(t.assistant._id, `/${t.webhook.id}`), { token: t.token, method: "DELETE" });
    expect(del.status).toBe(204);
    expect((await json(await call(hooksPath(t.assistant._id), { token: t.token }), webhooksResponse)).webhooks).toEqual([]);
  });
});

describe("webhooks: retries", () => {
  it("a 500 is retried with backoff, the same event id, until a 2xx", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await t.hook.script([{ status: 500, body: "boom" }]);
    await startSession(t.key);
    await t.hook.waitFor(1);
    const [failed] = await waitForDelivery(t, (d) => d.status === "retrying");
    expect(failed).toMatchObject({ attempts: 1, responseStatus: 500, response: "boom" });
    expect(failed!.nextAttemptAt! - failed!.lastAttemptAt!).toBeGreaterThanOrEqual(L.baseDelaySeconds * 800);
    expect(failed!.nextAttemptAt! - failed!.lastAttemptAt!).toBeLessThanOrEqual(L.baseDelaySeconds * 1200);
    // The queue would bring it back after the delay: the test runs that message now, its clock later.
    const later = Date.now() + 60_000;
    expect((await consume(t.assistant._id, failed!.id, { now: () => later })).outcome).toBe("acked");
    const got = await t.hook.requests();
    expect(got).toHaveLength(2);
    expect(eventIdOf(got[1]!)).toBe(eventIdOf(got[0]!));
    expect((await deliveriesOf(t.token, t.assistant._id, t.webhook.id))[0]).toMatchObject({ status: "delivered", attempts: 2, responseStatus: 200 });
  });

  it("a dropped connection is retried; a 400 is not", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await t.hook.script([{ destroy: true }, { status: 400, body: "bad" }]);
    await startSession(t.key);
    const [dropped] = await waitForDelivery(t, (d) => d.status === "retrying");
    expect(dropped).toMatchObject({ attempts: 1, responseStatus: null, error: M.networkError });
    const run = await consume(t.assistant._id, dropped!.id, { now: () => Date.now() + 60_000 });
    expect(run).toEqual({ outcome: "acked", resent: [] });
    expect((await deliveriesOf(t.token, t.assistant._id, t.webhook.id))[0]).toMatchObject({ status: "failed", attempts: 2, responseStatus: 400, response: "bad", nextAttemptAt: null });
    expect(await t.hook.requests()).toHaveLength(2);
  });

  it("a 429's Retry-After sets the next attempt, capped at the queue's longest delay", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await t.hook.script([
      { status: 429, headers: { "retry-after": "120" } },
      { status: 429, headers: { "retry-after": String(L.maxRetryAfterSeconds * 4) } },
    ]);
    await startSession(t.key);
    const [limited] = await waitForDelivery(t, (d) => d.status === "retrying");
    // Set from the report's time: the attempt's own duration comes on top.
    expect(limited!.nextAttemptAt! - limited!.lastAttemptAt!).toBeGreaterThanOrEqual(120_000);
    expect(limited!.nextAttemptAt! - limited!.lastAttemptAt!).toBeLessThan(125_000);
    const run = await consume(t.assistant._id, limited!.id, { now: () => Date.now() + 130_000 });
    expect(run.outcome).toBe("acked");
    expect(run.resent).toEqual([{ body: { assistantId: t.assistant._id, deliveryId: limited!.id }, delaySeconds: L.maxRetryAfterSeconds }]);
  });

  it("an endpoint failing for the whole window is disabled, its owner e-mailed once, and re-enabling clears it", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await t.hook.script(Array.from({ length: 6 }, () => ({ status: 503 })));
    await startSession(t.key);
    const [first] = await waitForDelivery(t, (d) => d.status === "retrying");
    // Retried near the window's end (the test's clock), still failing: given up, the endpoint turned off.
    const run = await consume(t.assistant._id, first!.id, { now: () => Date.now() + L.disableAfterMs + HOUR });
    expect(run).toEqual({ outcome: "acked", resent: [] });
    const hours = L.disableAfterMs / HOUR;
    const list = await json(await call(hooksPath(t.assistant._id), { token: t.token }), webhooksResponse);
    expect(list.webhooks[0]).toMatchObject({ enabled: false, disabledReason: M.disabledReason(hours), failingSince: expect.any(Number) });
    expect((await deliveriesOf(t.token, t.assistant._id, t.webhook.id))[0]).toMatchObject({ status: "failed" });
    const mails = (await outbox(t.ownerEmail)).filter((m) => m.subject === M.disabledEmailSubject("Shop helper"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(t.hook.url);
    // Off: nothing recorded for it any more.
    await startSession(t.key);
    await new Promise((r) => setTimeout(r, 300));
    expect(await t.hook.requests()).toHaveLength(2);
    const on = await call(hooksPath(t.assistant._id, `/${t.webhook.id}`), { token: t.token, method: "PATCH", json: { enabled: true } });
    const webhook = (await json(on, webhookResponse)).webhook;
    expect(webhook.enabled).toBe(true);
    expect(webhook.disabledReason).toBeUndefined();
    expect(webhook.failingSince).toBeUndefined();
  });
});

describe("webhooks: disabling after a day of failures", () => {
  it("an endpoint whose last failure was a day ago is not turned off by the next event's first failure: that one is retried", async () => {
    const t = await hookedAssistant(["conversation.started"]);
    await t.hook.script([{ status: 400 }]);
    await startSession(t.key);
    await waitForDelivery(t, (d) => d.status === "failed");
    // That failure was a day ago, and nothing came since (a quiet assistant).
    await hubRows(t.assistant._id, "UPDATE webhook_endpoints SET failing_since = failing_since - ?", L.disableAfterMs + HOUR);
    await t.hook.script([{ status: 503 }]);
    await startSession(t.key);
    await t.hook.waitFor(2);
    const [latest] = await waitForDelivery(t, (d) => d.attempts === 1 && d.status !== "pending");
    expect(latest).toMatchObject({ status: "retrying", responseStatus: 503 });
    const list = await json(await call(hooksPath(t.assistant._id), { token: t.token }), webhooksResponse);
    expect(list.webhooks[0]).toMatchObject({ enabled: true });
    expect((await outbox(t.ownerEmail)).filter((m) => m.subject === M.disabledEmailSubject("Shop helper"))).toHaveLength(0);
  });
});

async function waitForDelivery(t: { token: string; assistant: { _id: string }; webhook: { id: string } }, ready: (d: Awaited<ReturnType<typeof deliveriesOf>>[number]) => boolean) {
  const until = Date.now() + 8000;
  for (;;) {
    const list = await deliveriesOf(t.token, t.assistant._id, t.webhook.id);
    if ((list[0] && ready(list[0])) || Date.now() > until) return list;
    await new Promise((r) => setTimeout(r, 50));
  }
}
