import { describe, expect, it } from "vitest";
import { handoffMessages, serverMessages, visitorIdentity, visitorIdentityMessages, widgetApiPaths } from "../../contract";
import { call, expectError, json, registerUser } from "./helpers";
import { agentSays, agentTypes, askedForPerson, handBack, handoffConversation, hubRows, inbox, markRead, takeOver, tookOver, visitorHandoff, visitorSays, visitorView } from "./handoff-helpers";
import { createIdentitySecret, startSignedSession, visitorToken } from "./identity-helpers";
import { openWidgetSocket, widgetAssistant, widgetCall } from "./widget-helpers";

describe("only the assistant's owner reads the inbox, takes over or writes as a person", () => {
  it("another owner gets 404 for every route; nothing changes", async () => {
    const { assistantId, sessionId, key } = await handoffConversation();
    const other = await registerUser();
    const t = other.token;
    await expectError(await inbox(t, assistantId), 404, serverMessages.notFound);
    await expectError(await takeOver(t, assistantId, sessionId), 404, serverMessages.notFound);
    await expectError(await handBack(t, assistantId, sessionId), 404, serverMessages.notFound);
    await expectError(await agentSays(t, assistantId, sessionId, "I am the owner"), 404, serverMessages.notFound);
    await expectError(await agentTypes(t, assistantId, sessionId, true), 404, serverMessages.notFound);
    await expectError(await markRead(t, assistantId, sessionId), 404, serverMessages.notFound);
    await expectError(await call(`/api/public-assistants/${assistantId}/inbox/watch`, { token: t, json: {} }), 404, serverMessages.notFound);
    expect((await visitorView(key, sessionId)).handoff).toBeUndefined();
    const summary = (await json(await call("/api/inbox/summary", { token: t }))) as { assistants: unknown[] };
    expect(summary.assistants).toEqual([]);
  });

  it("another assistant's conversation is 404 through the owner's own assistant", async () => {
    const mine = await handoffConversation();
    const theirs = await handoffConversation();
    await expectError(await takeOver(mine.token, mine.assistantId, theirs.sessionId), 404, handoffMessages.conversationNotFound);
    await expectError(await agentSays(mine.token, mine.assistantId, theirs.sessionId, "Hi"), 404, handoffMessages.conversationNotFound);
  });

  it("without a sign-in every route is 401", async () => {
    const { assistantId, sessionId } = await handoffConversation();
    expect((await call(`/api/public-assistants/${assistantId}/inbox`)).status).toBe(401);
    expect((await call(`/api/public-assistants/${assistantId}/chats/${sessionId}/takeover`, { method: "POST" })).status).toBe(401);
    expect((await call("/api/inbox/summary")).status).toBe(401);
  });
});

describe("a visitor can never appear as the person", () => {
  it("the publishable key cannot reach the owner's routes, and a message claiming role agent is saved as the visitor's", async () => {
    const { key, assistantId, sessionId } = await handoffConversation();
    const res = await widgetCall(`/api/public-assistants/${assistantId}/chats/${sessionId}/messages`, { key, json: { content: "I am staff" } });
    expect(res.status).toBe(401);
    await visitorSays(key, sessionId, "Hello");
    const forged = await widgetCall(widgetApiPaths.messages(sessionId), { key, json: { clientMessageId: crypto.randomUUID(), content: "Trust me", role: "agent", author: { name: "Staff", initials: "S" } } });
    expect(forged.status).toBe(200);
    await forged.text();
    expect((await hubRows(assistantId, sessionId)).roles).not.toContain("agent");
    expect((await visitorView(key, sessionId)).messages.every((m) => m.role !== "agent" && m.author === undefined)).toBe(true);
  });

  it("a socket frame that is not the visitor's own is refused; typing means only the visitor types", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation();
    await tookOver(token, assistantId, sessionId);
    const socket = await openWidgetSocket(sessionId, key);
    await socket.next("remaining-messages");
    socket.ws.send(JSON.stringify({ event: "new-message", data: { message: { role: "agent", content: { type: "text", data: "forged" } } } }));
    expect((await socket.next("message-error")).reason).toBe("invalid");
    socket.ws.send(JSON.stringify({ event: "typing", data: { typing: true, name: "Ada Lovelace" } }));
    socket.sendMessage({ content: "After the typing frame" });
    await socket.next("new-message", (d) => d.message.content.data === "After the typing frame");
    expect(socket.all("typing")).toEqual([]);
    expect((await hubRows(assistantId, sessionId)).roles).toEqual(["user"]);
    socket.close();
  });

  it("the owner's address and the address a visitor left are never in the visitor's view", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation({ visitorAction: true });
    await askedForPerson(key, sessionId, { email: "me@example.com" });
    await tookOver(token, assistantId, sessionId);
    await agentSays(token, assistantId, sessionId, "Hello");
    const text = JSON.stringify(await visitorView(key, sessionId));
    expect(text).not.toContain("me@example.com");
    expect(text).not.toContain("@example.com");
  });
});

describe("a visitor's request is authorised as every widget session call", () => {
  it("another assistant's key cannot ask for a person in this conversation", async () => {
    const { sessionId } = await handoffConversation({ visitorAction: true });
    const other = await widgetAssistant({ config: { handoff: { visitorAction: true } } }, { upload: false });
    expect((await visitorHandoff(other.key, sessionId)).status).toBe(404);
    expect((await visitorHandoff("tala_pk_not-a-key", sessionId)).status).toBe(401);
  });

  it("a signed visitor's session needs that visitor's token", async () => {
    const owner = await widgetAssistant({ config: { handoff: { visitorAction: true } } }, { upload: false });
    const { secret } = await createIdentitySecret(owner.token, owner.assistant._id);
    const alice = await visitorToken(secret, { sub: "alice", name: "Alice", email: "alice@example.com" });
    const mallory = await visitorToken(secret, { sub: "mallory" });
    const session = await startSignedSession(owner.key, alice);
    await expectError(await visitorHandoff(owner.key, session.sessionId), 401, visitorIdentityMessages.tokenRequired);
    await expectError(await visitorHandoff(owner.key, session.sessionId, { headers: { [visitorIdentity.tokenHeader]: mallory } }), 401, visitorIdentityMessages.tokenRequired);
    const ok = await visitorHandoff(owner.key, session.sessionId, { headers: { [visitorIdentity.tokenHeader]: alice } });
    expect(ok.status).toBe(202);
    // A signed visitor with a known address is not asked for one.
    const handoff = ((await ok.json()) as { handoff: { emailLeft?: boolean; askEmailAt?: number } }).handoff;
    expect(handoff.emailLeft).toBe(true);
    expect(handoff.askEmailAt).toBeUndefined();
  });
});
