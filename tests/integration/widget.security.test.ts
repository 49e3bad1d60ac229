import { describe, expect, it } from "vitest";
import { apiKeyResponse, errorBodySchema, widgetMessages, widgetSocketClose } from "../../contract";
import { call, expectError, json } from "./helpers";
import { SHOP_ORIGIN, connectWidgetRaw, openWidgetSocket, sendOverSse, sessionRows, sseFrames, startSession, widgetAssistant, widgetCall } from "./widget-helpers";

const EVIL_ORIGIN = "https://evil.example";
const FAKE_KEY = `tala_pk_${"A".repeat(43)}`;

/** Every widget HTTP call for a session, as [method, path, body]. */
const widgetCalls = (sessionId: string): [string, string, unknown?][] => [
  ["GET", "/api/widget/config"],
  ["POST", "/api/widget/sessions", {}],
  ["GET", `/api/widget/sessions/${sessionId}`],
  ["POST", `/api/widget/sessions/${sessionId}/messages`, { content: "hi", clientMessageId: "c" }],
];

const callEach = (sessionId: string, init: { key?: string; origin?: string }) =>
  Promise.all(widgetCalls(sessionId).map(([method, path, body]) => widgetCall(path, { ...init, method, ...(body ? { json: body } : {}) })));

describe("the assistant key", () => {
  it("is required, and an unknown key is refused on every call and on the socket", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    for (const res of await callEach(sessionId, {})) await expectError(res, 401, widgetMessages.keyMissing);
    for (const res of await callEach(sessionId, { key: FAKE_KEY })) await expectError(res, 401, widgetMessages.unavailable);
    for (const res of await callEach(sessionId, { key: "not-a-key" })) await expectError(res, 401, widgetMessages.unavailable);
    expect((await connectWidgetRaw(sessionId, undefined)).status).toBe(401);
    expect((await connectWidgetRaw(sessionId, FAKE_KEY)).status).toBe(401);
  });

  it("stops answering at once when regenerated: HTTP, and an open socket (closed, saying why)", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const socket = await openWidgetSocket(sessionId, key);
    await socket.next("remaining-messages");

    const res = await call(`/api/public-assistants/${assistant._id}/regenerate-key`, { token, method: "POST" });
    const { apiKey: newKey } = await json(res, apiKeyResponse);
    for (const r of await callEach(sessionId, { key })) await expectError(r, 401, widgetMessages.unavailable);
    expect((await connectWidgetRaw(sessionId, key)).status).toBe(401);

    // The open socket is closed at once (no longer at its next message), saying why.
    expect(await socket.next("message-error")).toMatchObject({ error: widgetMessages.unavailable, reason: "unavailable" });
    expect((await socket.waitClosed()).code).toBe(widgetSocketClose.unavailable.code);
    expect((await sessionRows(sessionId)).messages).toHaveLength(0);

    // The new key works, on the same session.
    expect((await widgetCall(`/api/widget/sessions/${sessionId}`, { key: newKey })).status).toBe(200);
  });
});

describe("an inactive assistant", () => {
  it("refuses every call, new sockets, and closes an open socket", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    const socket = await openWidgetSocket(sessionId, key);
    await socket.next("remaining-messages");

    const put = await call(`/api/public-assistants/${assistant._id}`, { token, method: "PUT", json: { isActive: false } });
    expect(put.status).toBe(200);
    for (const res of await callEach(sessionId, { key })) await expectError(res, 403, widgetMessages.unavailable);
    expect((await connectWidgetRaw(sessionId, key)).status).toBe(403);
    // The open socket is closed at once (no longer at its next message), saying why.
    expect(await socket.next("message-error")).toMatchObject({ error: widgetMessages.unavailable });
    expect((await socket.waitClosed()).code).toBe(widgetSocketClose.unavailable.code);
    expect((await sessionRows(sessionId)).messages).toHaveLength(0);
  });

  it("carries the owner's contact line in the config's refusal (readable by the site's page), never to a site it does not allow, nothing when none is set", async () => {
    const contactLine = "Write to help@shop.example";
    const withLine = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN], config: { customization: { contactLine } } }, { upload: false });
    const without = await widgetAssistant({}, { upload: false });
    for (const a of [withLine, without]) {
      const put = await call(`/api/public-assistants/${a.assistant._id}`, { token: a.token, method: "PUT", json: { isActive: false } });
      expect(put.status).toBe(200);
    }
    const refused = await widgetCall("/api/widget/config", { key: withLine.key, origin: SHOP_ORIGIN });
    expect(refused.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    expect(await json(refused.clone(), errorBodySchema)).toMatchObject({ error: widgetMessages.unavailable, code: "FORBIDDEN", contactLine });
    expect(refused.status).toBe(403);
    // A site the assistant does not allow never gets it.
    const elsewhere = await json(await widgetCall("/api/widget/config", { key: withLine.key, origin: EVIL_ORIGIN }), errorBodySchema);
    expect(elsewhere).not.toHaveProperty("contactLine");
    const bare = await json(await widgetCall("/api/widget/config", { key: without.key, origin: SHOP_ORIGIN }), errorBodySchema);
    expect(bare.error).toBe(widgetMessages.unavailable);
    expect(bare).not.toHaveProperty("contactLine");
  });
});

describe("allowed origins", () => {
  it("refuses another site's calls and sockets, without reflecting its Origin", async () => {
    const { key } = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN] }, { upload: false });
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    for (const res of await callEach(sessionId, { key, origin: EVIL_ORIGIN })) {
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      await expectError(res, 403, widgetMessages.originNotAllowed);
    }
    // No Origin at all (a script outside a browser) is refused too when the assistant has an allowlist.
    for (const res of await callEach(sessionId, { key })) await expectError(res, 403, widgetMessages.originNotAllowed);
    const refused = await connectWidgetRaw(sessionId, key, { origin: EVIL_ORIGIN });
    expect(refused.status).toBe(403);
    expect((await json(refused, errorBodySchema)).error).toBe(widgetMessages.originNotAllowed);
    expect((await connectWidgetRaw(sessionId, key)).status).toBe(403);
  });

  it("serves the allowed site, reflecting its Origin", async () => {
    const { key } = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN] });
    const config = await widgetCall("/api/widget/config", { key, origin: SHOP_ORIGIN });
    expect(config.status).toBe(200);
    expect(config.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    const frames = await sseFrames(await sendOverSse(key, sessionId, { content: "refund [[tokens:2]]" }, { origin: SHOP_ORIGIN }));
    expect(frames.at(-1)?.event).toBe("remaining-messages");
    const socket = await openWidgetSocket(sessionId, key, { origin: SHOP_ORIGIN });
    await socket.next("remaining-messages");
    socket.close();
  });

  it("stops an open socket when its site is taken off the list", async () => {
    const { key, token, assistant } = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN] }, { upload: false });
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    const socket = await openWidgetSocket(sessionId, key, { origin: SHOP_ORIGIN });
    await socket.next("remaining-messages");
    await call(`/api/public-assistants/${assistant._id}`, { token, method: "PUT", json: { allowedOrigins: ["https://other.example"] } });
    // The open socket is closed at once (no longer at its next message), saying why.
    expect(await socket.next("message-error")).toMatchObject({ error: widgetMessages.originNotAllowed, reason: "origin-not-allowed" });
    expect((await socket.waitClosed()).code).toBe(widgetSocketClose.originNotAllowed.code);
  });
});

describe("session ownership", () => {
  it("keeps one assistant's key out of another assistant's sessions", async () => {
    const a = await widgetAssistant({}, { upload: false });
    const b = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(a.key);
    await expectError(await widgetCall(`/api/widget/sessions/${sessionId}`, { key: b.key }), 404, widgetMessages.sessionNotFound);
    await expectError(await sendOverSse(b.key, sessionId, { content: "hijack" }), 404, widgetMessages.sessionNotFound);
    expect((await connectWidgetRaw(sessionId, b.key)).status).toBe(404);
    // Resuming someone else's session starts a new one of your own.
    const resumed = await startSession(b.key, { visitorSessionId: sessionId });
    expect(resumed.sessionId).not.toBe(sessionId);
    expect((await sessionRows(sessionId)).messages).toHaveLength(0);
  });

  it("does not let a client name its own room identity", async () => {
    const a = await widgetAssistant({}, { upload: false });
    const b = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(a.key);
    const forged = JSON.stringify({ assistantId: b.assistant._id, sessionId, keyHash: "0".repeat(64), origin: "", ip: "1.1.1.1" });
    const url = `/parties/widget/${sessionId}?key=${encodeURIComponent(b.key)}`;
    const res = await call(url, { headers: { upgrade: "websocket", "x-tala-widget-identity": forged } });
    expect(res.status).toBe(404);
  });

  it("answers a plain GET of the socket path with 400", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    await expectError(await connectWidgetRaw(sessionId, key, { upgrade: false }), 400, widgetMessages.websocketOnly);
  });
});
