import { describe, expect, it } from "vitest";
import { chatHistoryExport, chatHistoryResponse, identitySecretCreated, visitorIdentity, visitorIdentityMessages as V, visitorSessionResponse, widgetSessionResponse } from "../../contract";
import { call, expectError, json } from "./helpers";
import {
  conversations,
  createIdentitySecret,
  identityStatus,
  secretPath,
  sendSigned,
  setPreviousExpiry,
  startSignedSession,
  startSignedSessionRaw,
  visitorToken,
} from "./identity-helpers";
import { hubRows } from "./public-assistants-helpers";
import { openWidgetSocket, sseFrames, widgetAssistant, widgetCall } from "./widget-helpers";

const QUESTION = "How many days do I have to return a zephyrboard?";

describe("identity secret (owner)", () => {
  it("creates a secret shown once, then shows it masked with its creation time", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    expect(await identityStatus(token, assistant._id)).toEqual({ current: null, previous: null });
    const created = await createIdentitySecret(token, assistant._id);
    expect(created.secret).toMatch(/^tala_vs_[\w-]{43}$/);
    expect(created.current?.masked).toBe(`tala_vs_${created.secret.slice(8, 12)}…${created.secret.slice(-4)}`);
    expect(created.previous).toBeNull();
    const status = await identityStatus(token, assistant._id);
    expect(status).toEqual({ current: created.current, previous: null });
    expect(JSON.stringify(status)).not.toContain(created.secret);
    // Stored sealed, never in clear.
    const [row] = await hubRows(assistant._id, "SELECT * FROM identity_secrets");
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(8));
  });

  it("rotates: the old secret keeps verifying during its grace, then stops", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const first = await createIdentitySecret(token, assistant._id);
    const second = await createIdentitySecret(token, assistant._id, 24);
    expect(second.secret).not.toBe(first.secret);
    expect(second.previous).toMatchObject({ masked: first.current!.masked, createdAt: first.current!.createdAt });
    expect(second.previous!.expiresAt).toBeGreaterThan(Date.now() + 23.9 * 3600_000);
    expect(second.previous!.expiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);

    // In grace: tokens of either secret verify.
    await startSignedSession(key, await visitorToken(first.secret, { sub: "old-user" }));
    await startSignedSession(key, await visitorToken(second.secret, { sub: "new-user" }));

    // After the grace (its end moved to the past): the old secret is refused, the new one works.
    await setPreviousExpiry(assistant._id, Date.now() - 1);
    await expectError(await startSignedSessionRaw(key, await visitorToken(first.secret, { sub: "old-user" })), 401, V.tokenInvalid);
    await startSignedSession(key, await visitorToken(second.secret, { sub: "new-user" }));
    expect((await identityStatus(token, assistant._id)).previous).toBeNull();
  });

  it("ends the grace on demand, and grace 0 stops the old secret at once", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const first = await createIdentitySecret(token, assistant._id);
    const second = await createIdentitySecret(token, assistant._id, 72);
    const oldToken = await visitorToken(first.secret, { sub: "u1" });
    await startSignedSession(key, oldToken);
    const res = await call(`${secretPath(assistant._id)}/previous`, { token, method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ current: second.current, previous: null });
    await expectError(await startSignedSessionRaw(key, oldToken), 401, V.tokenInvalid);

    const third = await createIdentitySecret(token, assistant._id, 0);
    expect(third.previous).toBeNull();
    await expectError(await startSignedSessionRaw(key, await visitorToken(second.secret, { sub: "u1" })), 401, V.tokenInvalid);
    await startSignedSession(key, await visitorToken(third.secret, { sub: "u1" }));
  });

  it("takes a POST with no body, or an empty one, as `{}`: creates, then rotates with the default grace", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const created = await call(secretPath(assistant._id), { token, method: "POST" });
    expect(created.status, await created.clone().text()).toBe(201);
    const first = await json(created, identitySecretCreated);
    const before = Date.now();
    const rotated = await call(secretPath(assistant._id), { token, method: "POST", body: "", headers: { "content-type": "application/json" } });
    expect(rotated.status, await rotated.clone().text()).toBe(201);
    const second = await json(rotated, identitySecretCreated);
    expect(second.secret).not.toBe(first.secret);
    expect(second.previous?.masked).toBe(first.current?.masked);
    const graceMs = visitorIdentity.graceHours.default * 3600_000;
    expect(second.previous!.expiresAt).toBeGreaterThanOrEqual(before + graceMs - 5_000);
    expect(second.previous!.expiresAt).toBeLessThanOrEqual(Date.now() + graceMs + 5_000);
  });
});

describe("signed visitors in the widget", () => {
  it("starts a verified session that carries the visitor, over SSE and the socket", async () => {
    const { token, assistant, key } = await widgetAssistant();
    const { secret } = await createIdentitySecret(token, assistant._id);
    const userToken = await visitorToken(secret, { sub: "user-42", name: "Amina", email: "amina@example.com" });
    const session = await startSignedSession(key, userToken);
    expect(session.visitor).toEqual({ id: "user-42", name: "Amina", email: "amina@example.com" });

    const frames = await sseFrames(await sendSigned(key, session.sessionId, QUESTION, userToken));
    expect(frames.some((f) => f.event === "message-delta" || f.event === "new-message")).toBe(true);
    expect(frames.some((f) => f.event === "message-error")).toBe(false);

    const read = await widgetCall(`/api/widget/sessions/${session.sessionId}`, { key, headers: { [visitorIdentity.tokenHeader]: userToken } });
    expect(read.status).toBe(200);
    const body = await json(read, widgetSessionResponse);
    expect(body.visitor?.id).toBe("user-42");
    expect(body.messages.length).toBeGreaterThanOrEqual(2);

    const socket = await openWidgetSocket(session.sessionId, key, { visitorToken: userToken });
    socket.sendMessage({ content: "And shipping?" });
    const reply = await socket.next("new-message", (m) => m.message.role === "assistant");
    expect(reply.message.content.data.length).toBeGreaterThan(0);
    socket.close();
  });

  it("gives the same user their conversations on two devices, newest first, and either device reopens the other's", async () => {
    const { token, assistant, key } = await widgetAssistant();
    const { secret } = await createIdentitySecret(token, assistant._id);
    const phone = await visitorToken(secret, { sub: "user-7", name: "Yusuf" });
    const laptop = await visitorToken(secret, { sub: "user-7", email: "yusuf@example.com" });
    const a = await startSignedSession(key, phone);
    await sseFrames(await sendSigned(key, a.sessionId, "First question from the phone", phone));
    const b = await startSignedSession(key, laptop);
    expect(b.sessionId).not.toBe(a.sessionId);
    await sseFrames(await sendSigned(key, b.sessionId, "Second question from the laptop", laptop));
    // A session with no message yet is not listed.
    await startSignedSession(key, laptop);

    const listed = await conversations(key, phone);
    expect(listed.visitor).toEqual({ id: "user-7", name: "Yusuf" });
    expect(listed.conversations.map((c) => c.sessionId)).toEqual([b.sessionId, a.sessionId]);
    expect(listed.conversations[0]).toMatchObject({ title: "Second question from the laptop", messageCount: 2 });
    expect(listed.conversations[1]!.title).toBe("First question from the phone");
    expect(listed.conversations[0]!.lastMessageAt).toBeGreaterThanOrEqual(listed.conversations[1]!.lastMessageAt);

    // The laptop reopens the phone's conversation and goes on in it.
    const reopened = await startSignedSession(key, laptop, a.sessionId, 200);
    expect(reopened.sessionId).toBe(a.sessionId);
    expect(reopened.messages[0]!.content.data).toBe("First question from the phone");
    await sseFrames(await sendSigned(key, a.sessionId, "Follow-up from the laptop", laptop));
    // The phone reopens the laptop's.
    expect((await startSignedSession(key, phone, b.sessionId, 200)).sessionId).toBe(b.sessionId);
    // Another user sees none of them.
    expect((await conversations(key, await visitorToken(secret, { sub: "user-8" }))).conversations).toEqual([]);
  });
});

describe("CORS", () => {
  it("lets pages send X-Visitor-Token and read the conversations list", async () => {
    const res = await call("/api/widget/conversations", {
      method: "OPTIONS",
      headers: { origin: "https://shop.example", "access-control-request-method": "GET", "access-control-request-headers": "x-assistant-key, x-visitor-token" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain(visitorIdentity.tokenHeader.toLowerCase());
  });
});

describe("owner's history of signed visitors", () => {
  it("shows who, filters by user, and exports the visitor", async () => {
    const { token, assistant, key } = await widgetAssistant();
    const { secret } = await createIdentitySecret(token, assistant._id);
    const amina = await visitorToken(secret, { sub: "user-1", name: "Amina", email: "amina@example.com" });
    const s1 = await startSignedSession(key, amina);
    await sseFrames(await sendSigned(key, s1.sessionId, QUESTION, amina));
    const bob = await visitorToken(secret, { sub: "user-2" });
    const s2 = await startSignedSession(key, bob);
    await sseFrames(await sendSigned(key, s2.sessionId, "Hello", bob));
    const anon = await startSignedSession(key, undefined);
    expect(anon.visitor).toBeUndefined();

    const all = await json(await call(`/api/public-assistants/${assistant._id}/chats`, { token }), chatHistoryResponse);
    expect(all.total).toBe(3);
    const byId = new Map(all.sessions.map((s) => [s.sessionId, s]));
    expect(byId.get(s1.sessionId)!.visitor).toEqual({ id: "user-1", name: "Amina", email: "amina@example.com" });
    expect(byId.get(s2.sessionId)!.visitor).toEqual({ id: "user-2" });
    expect(byId.get(anon.sessionId)!.visitor).toBeUndefined();

    const filtered = await json(await call(`/api/public-assistants/${assistant._id}/chats?user=user-1`, { token }), chatHistoryResponse);
    expect(filtered.sessions.map((s) => s.sessionId)).toEqual([s1.sessionId]);
    expect(filtered.total).toBe(1);
    const none = await json(await call(`/api/public-assistants/${assistant._id}/chats?user=nobody`, { token }), chatHistoryResponse);
    expect(none).toMatchObject({ sessions: [], total: 0 });

    const detail = await json(await call(`/api/public-assistants/${assistant._id}/chats/${s1.sessionId}`, { token }), visitorSessionResponse);
    expect(detail.session.visitor).toEqual({ id: "user-1", name: "Amina", email: "amina@example.com" });

    const exported = await json(await call(`/api/public-assistants/${assistant._id}/chats/export`, { token }), chatHistoryExport);
    const inExport = new Map(exported.sessions.map((s) => [s.sessionId, s.visitor]));
    expect(inExport.get(s1.sessionId)).toEqual({ id: "user-1", name: "Amina", email: "amina@example.com" });
    expect(inExport.get(anon.sessionId)).toBeUndefined();
  });
});

describe("limits per verified user", () => {
  it("counts maxMessagesPerSession across the user's sessions when the owner picks 'user'", async () => {
    const { token, assistant, key } = await widgetAssistant({ config: { maxMessagesPerSession: 2, visitorLimitScope: "user" } }, { upload: false });
    const { secret } = await createIdentitySecret(token, assistant._id);
    const t = await visitorToken(secret, { sub: "heavy-user" });
    const a = await startSignedSession(key, t);
    const b = await startSignedSession(key, t);
    expect((await sseFrames(await sendSigned(key, a.sessionId, "one", t))).some((f) => f.event === "message-error")).toBe(false);
    expect((await sseFrames(await sendSigned(key, b.sessionId, "two", t))).some((f) => f.event === "message-error")).toBe(false);
    // The user's third message, in either session, is refused; a new session does not reset it.
    const c = await startSignedSession(key, t);
    expect(c.remaining.session).toBe(0);
    const refused = await sendSigned(key, c.sessionId, "three", t);
    expect(refused.status).toBe(429);
    // Another user has their own allowance.
    const other = await visitorToken(secret, { sub: "light-user" });
    const d = await startSignedSession(key, other);
    expect(d.remaining.session).toBe(2);
  });

  it("keeps counting per session with the default 'session'", async () => {
    const { token, assistant, key } = await widgetAssistant({ config: { maxMessagesPerSession: 1 } }, { upload: false });
    const { secret } = await createIdentitySecret(token, assistant._id);
    const t = await visitorToken(secret, { sub: "u" });
    const a = await startSignedSession(key, t);
    const b = await startSignedSession(key, t);
    expect((await sendSigned(key, a.sessionId, "one", t)).status).toBe(200);
    expect((await sendSigned(key, b.sessionId, "two", t)).status).toBe(200);
    expect((await sendSigned(key, a.sessionId, "three", t)).status).toBe(429);
  });
});
