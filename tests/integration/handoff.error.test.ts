import { describe, expect, it } from "vitest";
import { handoffLimits, handoffMessages, serverMessages, widgetMessages } from "../../contract";
import { call, expectError } from "./helpers";
import { agentSays, agentTypes, askedForPerson, handoffConversation, inbox, takeOver, tookOver, visitorHandoff, visitorView } from "./handoff-helpers";

describe("a person's messages: errors", () => {
  it("409 unless the conversation is taken over, naming what to do", async () => {
    const { token, assistantId, sessionId } = await handoffConversation();
    await expectError(await agentSays(token, assistantId, sessionId, "Hello"), 409, handoffMessages.notTakenOver);
    await expectError(await agentTypes(token, assistantId, sessionId, true), 409, handoffMessages.notTakenOver);
  });

  it("400 for an empty or too long message, naming the limit; 400 for a typing that is not a boolean", async () => {
    const { token, assistantId, sessionId } = await handoffConversation();
    await tookOver(token, assistantId, sessionId);
    await expectError(await agentSays(token, assistantId, sessionId, "   "), 400, handoffMessages.contentRequired);
    await expectError(await agentSays(token, assistantId, sessionId, 42), 400, handoffMessages.contentRequired);
    await expectError(await agentSays(token, assistantId, sessionId, "x".repeat(handoffLimits.maxMessageChars + 1)), 400, handoffMessages.contentTooLong(handoffLimits.maxMessageChars));
    await expectError(await agentTypes(token, assistantId, sessionId, "yes"), 400, handoffMessages.typingInvalid);
    // Exactly at the cap passes.
    expect((await agentSays(token, assistantId, sessionId, "y".repeat(handoffLimits.maxMessageChars))).status).toBe(201);
  });

  it("404 for a conversation that is not there", async () => {
    const { token, assistantId } = await handoffConversation();
    await expectError(await takeOver(token, assistantId, crypto.randomUUID()), 404, handoffMessages.conversationNotFound);
    await expectError(await agentSays(token, assistantId, crypto.randomUUID(), "Hello"), 404, handoffMessages.conversationNotFound);
    await expectError(await takeOver(token, assistantId, "x".repeat(200)), 404, handoffMessages.conversationNotFound);
  });

  it("400 for an inbox filter that does not exist", async () => {
    const { token, assistantId } = await handoffConversation();
    await expectError(await inbox(token, assistantId, "?filter=everything"), 400, handoffMessages.filterInvalid(handoffLimits.inboxFilters));
  });
});

describe("a visitor's request: errors", () => {
  it("403 when the owner does not offer a person and the assistant offered none", async () => {
    const { key, sessionId } = await handoffConversation();
    await expectError(await visitorHandoff(key, sessionId), 403, handoffMessages.handoffOff);
    expect((await visitorView(key, sessionId)).handoff).toBeUndefined();
  });

  it("400 for an address that is not one, or too long; nothing changes", async () => {
    const { key, sessionId } = await handoffConversation({ visitorAction: true });
    await expectError(await visitorHandoff(key, sessionId, { body: { email: "not-an-address" } }), 400, handoffMessages.emailInvalid);
    await expectError(await visitorHandoff(key, sessionId, { body: { email: `${"a".repeat(250)}@example.com` } }), 400, handoffMessages.emailTooLong(handoffLimits.maxEmailChars));
    expect((await visitorView(key, sessionId)).handoff).toBeUndefined();
  });

  it("404 for an unknown session", async () => {
    const { key } = await handoffConversation({ visitorAction: true });
    await expectError(await visitorHandoff(key, crypto.randomUUID()), 404, widgetMessages.sessionNotFound);
  });

  it("going back to the assistant leaves a taken conversation taken", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation({ visitorAction: true });
    await askedForPerson(key, sessionId);
    await tookOver(token, assistantId, sessionId);
    const res = await visitorHandoff(key, sessionId, { method: "DELETE" });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { handoff: { state: string } }).handoff.state).toBe("taken");
  });

  it("a deleted assistant's inbox and takeover answer 404", async () => {
    const { token, assistantId, sessionId } = await handoffConversation();
    await tookOver(token, assistantId, sessionId);
    expect((await call(`/api/public-assistants/${assistantId}`, { token, method: "DELETE" })).status).toBe(204);
    await expectError(await inbox(token, assistantId), 404, serverMessages.notFound);
    await expectError(await takeOver(token, assistantId, sessionId), 404, serverMessages.notFound);
  });
});
