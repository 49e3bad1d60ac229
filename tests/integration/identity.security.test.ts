import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { chatHistoryExport, chatHistoryResponse, visitorIdentity, visitorIdentityMessages as V, visitorSessionResponse, widgetApiPaths, widgetSessionResponse } from "../../contract";
import { toBase64Url } from "../../worker/crypto/encoding";
import { signVisitorToken } from "../../worker/crypto/visitor-token";
import { call, expectError, json, registerUser } from "./helpers";
import { conversations, createIdentitySecret, secretPath, sendSigned, setPreviousExpiry, startSignedSession, startSignedSessionRaw, visitorToken } from "./identity-helpers";
import { hubRows } from "./public-assistants-helpers";
import { connectWidgetRaw, openWidgetSocket, sseFrames, widgetAssistant, widgetCall } from "./widget-helpers";

const b64 = (value: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)));

async function verifiedConversation() {
  const owner = await widgetAssistant();
  const { secret } = await createIdentitySecret(owner.token, owner.assistant._id);
  const alice = await visitorToken(secret, { sub: "alice", name: "Alice" });
  const session = await startSignedSession(owner.key, alice);
  await sseFrames(await sendSigned(owner.key, session.sessionId, "My private order question", alice));
  return { ...owner, secret, alice, session };
}

describe("a verified visitor's conversation stays theirs", () => {
  it("cannot be resumed anonymously or by another visitor: they get a new session and see nothing", async () => {
    const { key, secret, session } = await verifiedConversation();
    const anon = await startSignedSession(key, undefined, session.sessionId, 201);
    expect(anon.sessionId).not.toBe(session.sessionId);
    expect(anon.messages).toEqual([]);
    expect(anon.visitor).toBeUndefined();
    const mallory = await startSignedSession(key, await visitorToken(secret, { sub: "mallory" }), session.sessionId, 201);
    expect(mallory.sessionId).not.toBe(session.sessionId);
    expect(mallory.messages).toEqual([]);
    expect(mallory.visitor?.id).toBe("mallory");
  });

  it("an anonymous session is not taken over by a signed-in visitor", async () => {
    const { key, secret } = await verifiedConversation();
    const anon = await startSignedSession(key, undefined);
    const signed = await startSignedSession(key, await visitorToken(secret, { sub: "alice" }), anon.sessionId, 201);
    expect(signed.sessionId).not.toBe(anon.sessionId);
  });

  it("GET needs the visitor's own token", async () => {
    const { key, secret, session, alice } = await verifiedConversation();
    const path = `/api/widget/sessions/${session.sessionId}`;
    await expectError(await widgetCall(path, { key }), 401, V.tokenRequired);
    await expectError(await widgetCall(path, { key, headers: { [visitorIdentity.tokenHeader]: await visitorToken(secret, { sub: "mallory" }) } }), 401, V.tokenRequired);
    const ok = await widgetCall(path, { key, headers: { [visitorIdentity.tokenHeader]: alice } });
    expect((await json(ok, widgetSessionResponse)).messages.length).toBeGreaterThan(0);
  });

  it("rating an answer needs the visitor's own token too", async () => {
    const { key, secret, session, alice } = await verifiedConversation();
    const read = await widgetCall(`/api/widget/sessions/${session.sessionId}`, { key, headers: { [visitorIdentity.tokenHeader]: alice } });
    const answer = (await json(read, widgetSessionResponse)).messages.find((m) => m.role === "assistant")!;
    const path = widgetApiPaths.feedback(session.sessionId, answer.id);
    await expectError(await widgetCall(path, { key, method: "POST", body: JSON.stringify({ rating: "down" }) }), 401, V.tokenRequired);
    const mallory = await visitorToken(secret, { sub: "mallory" });
    await expectError(await widgetCall(path, { key, method: "POST", body: JSON.stringify({ rating: "down" }), headers: { [visitorIdentity.tokenHeader]: mallory } }), 401, V.tokenRequired);
    const ok = await widgetCall(path, { key, method: "POST", body: JSON.stringify({ rating: "up" }), headers: { [visitorIdentity.tokenHeader]: alice } });
    expect(ok.status).toBe(200);
  });

  it("SSE messages need the visitor's own token, and a refused one is not saved", async () => {
    const { key, secret, session, assistant } = await verifiedConversation();
    await expectError(await sendSigned(key, session.sessionId, "sneaky"), 401, V.tokenRequired);
    await expectError(await sendSigned(key, session.sessionId, "sneaky", await visitorToken(secret, { sub: "mallory" })), 401, V.tokenRequired);
    const rows = await hubRows(assistant._id, "SELECT count(*) AS n FROM visitor_messages WHERE session_id = ? AND content = 'sneaky'", session.sessionId);
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it("the socket needs the visitor's own token (401 before the room), and works with it", async () => {
    const { key, secret, session, alice } = await verifiedConversation();
    await expectError(await connectWidgetRaw(session.sessionId, key), 401, V.tokenRequired);
    await expectError(await connectWidgetRaw(session.sessionId, key, { visitorToken: await visitorToken(secret, { sub: "mallory" }) }), 401, V.tokenRequired);
    await expectError(await connectWidgetRaw(session.sessionId, key, { visitorToken: "x.y.z" }), 401, V.tokenInvalid);
    const socket = await openWidgetSocket(session.sessionId, key, { visitorToken: alice });
    socket.sendMessage({ content: "Still me" });
    await socket.next("new-message", (m) => m.message.role === "assistant");
    socket.close();
  });

  it("lists only the visitor's own conversations", async () => {
    const { key, secret, session, alice } = await verifiedConversation();
    expect((await conversations(key, alice)).conversations.map((c) => c.sessionId)).toEqual([session.sessionId]);
    expect((await conversations(key, await visitorToken(secret, { sub: "mallory" }))).conversations).toEqual([]);
  });
});

describe("forged tokens", () => {
  it("refuses alg none, HS512 and a token of another assistant's secret", async () => {
    const { key, secret } = await verifiedConversation();
    const other = await widgetAssistant({}, { upload: false });
    const { secret: otherSecret } = await createIdentitySecret(other.token, other.assistant._id);
    const payload = b64({ sub: "alice", exp: Math.floor(Date.now() / 1000) + 600 });
    await expectError(await startSignedSessionRaw(key, `${b64({ alg: "none" })}.${payload}.${"A".repeat(43)}`), 401, V.tokenInvalid);
    await expectError(await startSignedSessionRaw(key, await signVisitorToken({ sub: "alice", exp: Math.floor(Date.now() / 1000) + 600 }, secret, { alg: "HS512" })), 401, V.tokenInvalid);
    await expectError(await startSignedSessionRaw(key, await visitorToken(otherSecret, { sub: "alice" })), 401, V.tokenInvalid);
    // A tampered payload (sub changed) with the original signature.
    const real = (await visitorToken(secret, { sub: "mallory" })).split(".");
    await expectError(await startSignedSessionRaw(key, `${real[0]}.${payload}.${real[2]}`), 401, V.tokenInvalid);
  });
});

describe("hostile identity claims", () => {
  it("reach storage, the owner's history, the export and the widget's list without control or bidirectional characters", async () => {
    const { token, assistant, key } = await widgetAssistant();
    const { secret } = await createIdentitySecret(token, assistant._id);
    const hostile = await visitorToken(secret, {
      sub: "user-9\u202e",
      name: "\u202eAmina\r\nSupport team\u0000",
      email: "amina@example.com\r\nBcc: all@example.com\u202e\u2066",
    });
    const clean = { id: "user-9", name: "Amina Support team", email: "amina@example.com Bcc: all@example.com" };
    const session = await startSignedSession(key, hostile);
    expect(session.visitor).toEqual(clean);
    await sseFrames(await sendSigned(key, session.sessionId, "Where is my order?", hostile));

    const [row] = await hubRows(assistant._id, "SELECT visitor_sub, visitor_name, visitor_email FROM visitor_sessions WHERE id = ?", session.sessionId);
    expect(row).toEqual({ visitor_sub: clean.id, visitor_name: clean.name, visitor_email: clean.email });

    const base = `/api/public-assistants/${assistant._id}/chats`;
    const list = await json(await call(`${base}?user=user-9`, { token }), chatHistoryResponse);
    expect(list.sessions.map((s) => s.visitor)).toEqual([clean]);
    const detail = await json(await call(`${base}/${session.sessionId}`, { token }), visitorSessionResponse);
    expect(detail.session.visitor).toEqual(clean);
    const exportRes = await call(`${base}/export`, { token });
    const exportText = await exportRes.clone().text();
    expect(exportText).not.toMatch(/\\u202e|\\u2066|\\u0000|\\r|\u202e|\u2066/i);
    const exported = await json(exportRes, chatHistoryExport);
    expect(exported.sessions.find((s) => s.sessionId === session.sessionId)?.visitor).toEqual(clean);
    expect((await conversations(key, hostile)).visitor).toEqual(clean);
  });

  it("an anonymous session's referrer, locale and user agent reach the owner clean too", async () => {
    const { token, assistant, key } = await widgetAssistant();
    const res = await widgetCall("/api/widget/sessions", {
      key,
      headers: { "user-agent": "Mozilla/5.0 \u007fprobe\u0001/1" },
      json: { referrer: "https://shop.example/\u202egpj.exe\r\nX: y", locale: "en-US\u2066" },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { sessionId } = await json(res, widgetSessionResponse);
    const detail = await json(await call(`/api/public-assistants/${assistant._id}/chats/${sessionId}`, { token }), visitorSessionResponse);
    expect(detail.session.sessionInfo).toMatchObject({ referrer: "https://shop.example/gpj.exe X: y", locale: "en-US", userAgent: "Mozilla/5.0 probe/1" });
  });
});

describe("identity-secret routes: owner only", () => {
  it("need a signed-in user, and answer 404 for another owner's assistant", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    await createIdentitySecret(token, assistant._id);
    const routes = [
      { path: secretPath(assistant._id) },
      { path: secretPath(assistant._id), method: "POST", json: {} },
      { path: `${secretPath(assistant._id)}/previous`, method: "DELETE" },
    ];
    const stranger = await registerUser();
    for (const route of routes) {
      const init = { method: route.method, ...(route.json ? { json: route.json } : {}) };
      expect((await call(route.path, init)).status).toBe(401);
      expect((await call(route.path, { ...init, token: stranger.token })).status).toBe(404);
    }
    // The stranger's attempts changed nothing: still one secret, no previous one.
    const status = await (await call(secretPath(assistant._id), { token })).json();
    expect(status).toMatchObject({ previous: null });
  });

  it("the history's user filter does not reach another owner's sessions", async () => {
    const { assistant } = await verifiedConversation();
    const stranger = await registerUser();
    expect((await call(`/api/public-assistants/${assistant._id}/chats?user=alice`, { token: stranger.token })).status).toBe(404);
  });
});

describe("an emergency rotation", () => {
  it("closes the open sockets of signed-in visitors when the old secret stops at once, so they are verified again; anonymous sockets stay", async () => {
    const { key, token, assistant, session, alice } = await verifiedConversation();
    const anon = await startSignedSession(key, undefined);
    const verifiedSocket = await openWidgetSocket(session.sessionId, key, { visitorToken: alice });
    const anonSocket = await openWidgetSocket(anon.sessionId, key);
    // Both registered with the assistant's object (remaining-messages comes after that).
    await verifiedSocket.next("remaining-messages");
    await anonSocket.next("remaining-messages");
    // The secret leaked: rotated with no grace. A socket opened with a token of the old secret
    // (a forged one, say) must not go on receiving the visitor's conversation.
    await createIdentitySecret(token, assistant._id, 0);
    const closed = await verifiedSocket.waitClosed(2000);
    // Not 4003 (final): the widget reconnects, and the reconnect is verified with the new secret.
    expect(closed.code).not.toBe(4003);
    await expectError(await connectWidgetRaw(session.sessionId, key, { visitorToken: alice }), 401, V.tokenInvalid);
    anonSocket.sendMessage({ content: "Still here" });
    await anonSocket.next("new-message", (m) => m.message.role === "assistant");
    expect(anonSocket.closed).toBeNull();
    anonSocket.close();
  });

  it("ending the grace closes them too; a rotation with grace leaves them open", async () => {
    const { key, token, assistant, session, alice } = await verifiedConversation();
    const socket = await openWidgetSocket(session.sessionId, key, { visitorToken: alice });
    await socket.next("remaining-messages");
    await createIdentitySecret(token, assistant._id, 24);
    socket.sendMessage({ content: "Still me during the grace" });
    await socket.next("new-message", (m) => m.message.role === "assistant");
    expect(socket.closed).toBeNull();
    const ended = await call(`${secretPath(assistant._id)}/previous`, { token, method: "DELETE" });
    expect(ended.status).toBe(200);
    expect((await socket.waitClosed(2000)).code).not.toBe(4003);
  });

  it("a grace that runs out by itself closes them too, when the assistant's alarm comes", async () => {
    const { key, token, assistant, session, alice } = await verifiedConversation();
    await createIdentitySecret(token, assistant._id, 1);
    // Alice's page carries a token of the first secret, now the previous one, still in its grace.
    const socket = await openWidgetSocket(session.sessionId, key, { visitorToken: alice });
    await socket.next("remaining-messages");
    // The hour goes by (the alarm was set for the grace's end): the objects' clock moves past it.
    const hub = getAssistantHub(env, assistant._id);
    const armed = await runInDurableObject(hub, (_i, state) => state.storage.getAlarm());
    expect(armed).not.toBeNull();
    expect(socket.closed).toBeNull();
    vi.useFakeTimers({ toFake: ["Date"], now: armed! + 1000 });
    try {
      expect(await runDurableObjectAlarm(hub)).toBe(true);
      expect((await socket.waitClosed(2000)).code).not.toBe(4003);
    } finally {
      vi.useRealTimers();
    }
    // The previous secret's grace is over, so Alice's token no longer verifies.
    await setPreviousExpiry(assistant._id, Date.now() - 1000);
    await expectError(await connectWidgetRaw(session.sessionId, key, { visitorToken: alice }), 401, V.tokenInvalid);
  });

  it("a second rotation, which drops the previous secret still in its grace, closes them too", async () => {
    const { key, token, assistant, session, alice } = await verifiedConversation();
    await createIdentitySecret(token, assistant._id, 24);
    // Alice's page still carries a token of the first secret, now the previous one.
    const socket = await openWidgetSocket(session.sessionId, key, { visitorToken: alice });
    await socket.next("remaining-messages");
    await createIdentitySecret(token, assistant._id, 24);
    expect((await socket.waitClosed(2000)).code).not.toBe(4003);
    await expectError(await connectWidgetRaw(session.sessionId, key, { visitorToken: alice }), 401, V.tokenInvalid);
  });
});
