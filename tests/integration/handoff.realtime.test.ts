import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { handoffLimits, visitorIdentityMessages, widgetMessages, widgetSocketClose, type WidgetServerFrame } from "../../contract";
import { getAssistantHub, getWidgetRoom } from "../../worker/durable-objects/stubs";
import { deliverToVisitor } from "../../worker/services/realtime/deliver-to-visitor";
import { openSessionPrefix } from "../../worker/widget/open-sessions";
import { eventsRaw, openVisitorEvents, type VisitorEvents } from "./handoff-realtime-helpers";
import { call, expectError } from "./helpers";
import { createIdentitySecret, startSignedSession, visitorToken } from "./identity-helpers";
import { openWidgetSocket, SHOP_ORIGIN, startSession, widgetAssistant } from "./widget-helpers";

const withinTwoSeconds = 2000;
const withinOneSecond = 1000;

const typing = (chatId: string, on = true): WidgetServerFrame => ({ event: "typing", data: { chatId, typing: on, name: "Ana Lopez" } });

/** Whether the assistant's object holds the session as open (a socket or an event stream registered). */
async function registered(assistantId: string, sessionId: string): Promise<boolean> {
  return runInDurableObject(getAssistantHub(env, assistantId), async (_instance, state) => (await state.storage.get(`${openSessionPrefix}${sessionId}`)) !== undefined);
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the visitor's event stream (GET /api/widget/sessions/{id}/events)", () => {
  it("a frame delivered to the session reaches its event stream within 2 s, with the site's CORS, and its sockets too", async () => {
    const { key } = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN] }, { upload: false });
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    const events = await openVisitorEvents(sessionId, key, { origin: SHOP_ORIGIN });
    expect(events.res.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    expect(events.res.headers.get("cache-control")).toContain("no-store");
    const socket = await openWidgetSocket(sessionId, key, { origin: SHOP_ORIGIN });
    await socket.next("remaining-messages");

    const sentAt = Date.now();
    await deliverToVisitor(env, sessionId, typing(sessionId));
    expect(await events.next("typing", undefined, withinTwoSeconds)).toEqual({ chatId: sessionId, typing: true, name: "Ana Lopez" });
    expect(Date.now() - sentAt).toBeLessThan(withinTwoSeconds);
    await socket.next("typing");

    // A person joined: the handoff frame comes the same way, in order after the typing.
    await deliverToVisitor(env, sessionId, { event: "handoff", data: { chatId: sessionId, handoff: { state: "taken", takenAt: Date.now(), agent: { name: "Ana Lopez", initials: "AL" } } } });
    const handoff = await events.next("handoff", undefined, withinTwoSeconds);
    expect(handoff.handoff).toMatchObject({ state: "taken", agent: { initials: "AL" } });
    expect(events.frames.map((f) => f.event)).toEqual(["typing", "handoff"]);
    expect(events.invalid).toEqual([]);
    events.cancel();
    socket.close();
  });

  it("refuses a wrong key (401), an Origin off the allowlist (403), an unknown session (404) and another assistant's session (404)", async () => {
    const { key } = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN] }, { upload: false });
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    const other = await widgetAssistant({}, { upload: false });
    const foreign = await startSession(other.key);

    expect((await eventsRaw(sessionId, undefined, { origin: SHOP_ORIGIN })).status).toBe(401);
    expect((await eventsRaw(sessionId, `${key.slice(0, -4)}zzzz`, { origin: SHOP_ORIGIN })).status).toBe(401);
    const badOrigin = await eventsRaw(sessionId, key, { origin: "https://evil.example" });
    expect(badOrigin.status).toBe(403);
    expect(badOrigin.headers.get("access-control-allow-origin")).toBeNull();
    await expectError(await eventsRaw("no-such-session", key, { origin: SHOP_ORIGIN }), 404, widgetMessages.sessionNotFound);
    await expectError(await eventsRaw(foreign.sessionId, key, { origin: SHOP_ORIGIN }), 404, widgetMessages.sessionNotFound);
    // Nothing was held open for any of them.
    expect(await registered(other.assistant._id, foreign.sessionId)).toBe(false);
  });

  it("a signed visitor's session needs that visitor's token (401 without it)", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const { secret } = await createIdentitySecret(token, assistant._id);
    const userToken = await visitorToken(secret, { sub: "customer-7" });
    const { sessionId } = await startSignedSession(key, userToken);
    await expectError(await eventsRaw(sessionId, key), 401, visitorIdentityMessages.tokenRequired);
    const anotherVisitor = await visitorToken(secret, { sub: "customer-8" });
    expect((await eventsRaw(sessionId, key, { visitorToken: anotherVisitor })).status).toBe(401);
    const events = await openVisitorEvents(sessionId, key, { visitorToken: userToken });
    await deliverToVisitor(env, sessionId, typing(sessionId));
    await events.next("typing", undefined, withinTwoSeconds);
    events.cancel();
  });

  it(`holds at most ${handoffLimits.maxEventStreams} streams per session: one more ends the oldest`, async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const streams: VisitorEvents[] = [];
    for (let i = 0; i <= handoffLimits.maxEventStreams; i++) streams.push(await openVisitorEvents(sessionId, key));
    const [oldest, ...kept] = streams;
    await oldest!.waitEnded(withinOneSecond);
    await deliverToVisitor(env, sessionId, typing(sessionId));
    for (const stream of kept) await stream.next("typing", undefined, withinTwoSeconds);
    expect(oldest!.frames).toEqual([]);
    for (const stream of kept) stream.cancel();
  });

  it("while a stream is open the session is registered with the assistant's object, so a regenerated key ends it with the message-error first", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const events = await openVisitorEvents(sessionId, key);
    expect(await registered(assistant._id, sessionId)).toBe(true);

    const res = await call(`/api/public-assistants/${assistant._id}/regenerate-key`, { method: "POST", token });
    expect(res.status).toBe(200);
    await events.waitEnded(withinOneSecond);
    expect(events.frames).toEqual([
      { event: "message-error", data: { error: widgetSocketClose.unavailable.reason, reason: widgetSocketClose.unavailable.refusal, chatId: sessionId } },
    ]);
    expect(await eventually(async () => !(await registered(assistant._id, sessionId)))).toBe(true);
    // The old key opens no new stream.
    expect((await eventsRaw(sessionId, key)).status).toBe(401);
  });

  it("a visitor who went away is noticed at the next write (a frame or the heartbeat): the room counts the stream no more and the session is no longer registered", async () => {
    const { assistant, key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const events = await openVisitorEvents(sessionId, key);
    const room = getWidgetRoom(env, sessionId);
    expect(await room.openSockets()).toBe(1);
    events.cancel();
    await new Promise((r) => setTimeout(r, 100));
    await deliverToVisitor(env, sessionId, typing(sessionId));
    expect(await eventually(async () => (await room.openSockets()) === 0)).toBe(true);
    expect(await eventually(async () => !(await registered(assistant._id, sessionId)))).toBe(true);
  });

  it("an Origin taken off the allowlist ends that Origin's streams and keeps the others", async () => {
    const kept = "https://kept.example";
    const { token, assistant, key } = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN, kept] }, { upload: false });
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    const refused = await openVisitorEvents(sessionId, key, { origin: SHOP_ORIGIN });
    const staying = await openVisitorEvents(sessionId, key, { origin: kept });
    const res = await call(`/api/public-assistants/${assistant._id}`, { method: "PUT", token, json: { allowedOrigins: [kept] } });
    expect(res.status).toBe(200);
    await refused.waitEnded(withinOneSecond);
    expect(refused.frames.map((f) => f.event === "message-error" && f.data.reason)).toEqual([widgetSocketClose.originNotAllowed.refusal]);
    await deliverToVisitor(env, sessionId, typing(sessionId));
    await staying.next("typing", undefined, withinTwoSeconds);
    expect(staying.endedAt).toBeNull();
    staying.cancel();
  });

  it("switching the assistant off ends its streams", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const events = await openVisitorEvents(sessionId, key);
    const res = await call(`/api/public-assistants/${assistant._id}`, { method: "PUT", token, json: { isActive: false } });
    expect(res.status).toBe(200);
    await events.waitEnded(withinOneSecond);
    expect(events.frames.map((f) => f.event === "message-error" && f.data.reason)).toEqual([widgetSocketClose.unavailable.refusal]);
  });
});
