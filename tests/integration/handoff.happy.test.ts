import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { appRoutes, handoffMessages, inboxSummaryResponse, visitorSessionResponse, type WidgetMessage } from "../../contract";
import { applyStorageMigrations } from "../../worker/durable-objects/storage-migrations";
import { assistantStorageMigrations } from "../../worker/assistant/storage-migrations";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, json, outbox } from "./helpers";
import {
  agentSaid,
  agentTypes,
  askedForPerson,
  emailsTo,
  handBack,
  handoffConversation,
  hubRows,
  inboxOf,
  markRead,
  tookOver,
  visitorHandoff,
  visitorSays,
  visitorView,
} from "./handoff-helpers";
import { insightsOf } from "./insights-helpers";
import { openWidgetSocket } from "./widget-helpers";

/** The signed-in owner's address (GET /api/auth/me). */
async function ownerEmail(token: string) {
  const me = (await json(await call("/api/auth/me", { token }))) as { user?: { email: string }; email?: string };
  return me.user?.email ?? me.email ?? "";
}

const messagesOf = (frames: { event: string; data: unknown }[]) =>
  frames.filter((f) => f.event === "new-message").map((f) => (f.data as { message: WidgetMessage }).message);

describe("a person takes over a conversation", () => {
  it("pauses the model and counts nothing; the person's messages are shown in order; handing back resumes the assistant", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation();
    // One ordinary turn first: the model answers and the counters move.
    expect(messagesOf(await visitorSays(key, sessionId, "Hello there")).map((m) => m.role)).toEqual(["user", "assistant"]);
    const before = await hubRows(assistantId, sessionId);

    const session = await tookOver(token, assistantId, sessionId);
    expect(session.handoff).toMatchObject({ state: "taken", agent: { name: "Ada Lovelace", initials: "AL" } });

    // A message the model would fail on: it never reaches it (no thinking, no answer, no error).
    const frames = await visitorSays(key, sessionId, "[[fail:500]] Is anyone there?");
    expect(frames.map((f) => f.event)).toEqual(["new-message", "remaining-messages"]);
    expect(messagesOf(frames)[0]).toMatchObject({ role: "user", content: { data: "[[fail:500]] Is anyone there?" } });
    const during = await hubRows(assistantId, sessionId);
    expect(during.session.counted).toBe(before.session.counted);
    expect(during.dailyCount).toBe(before.dailyCount);

    const said = await agentSaid(token, assistantId, sessionId, "Hi, I'm **Ada** from the team.");
    expect(said).toMatchObject({ role: "agent", author: { name: "Ada Lovelace", initials: "AL" }, content: { data: "Hi, I'm **Ada** from the team." } });
    expect((await hubRows(assistantId, sessionId)).dailyCount).toBe(before.dailyCount);

    const view = await visitorView(key, sessionId);
    expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "agent"]);
    expect(view.messages[3]?.author?.name).toBe("Ada Lovelace");
    expect(view.handoff).toMatchObject({ state: "taken", agent: { name: "Ada Lovelace" } });
    const owner = await json(await call(`/api/public-assistants/${assistantId}/chats/${sessionId}`, { token }), visitorSessionResponse);
    expect(owner.session.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "agent"]);
    expect(owner.session.handoff?.state).toBe("taken");

    const back = await handBack(token, assistantId, sessionId);
    expect(back.status).toBe(200);
    expect((await json(back, visitorSessionResponse)).session.handoff?.state).toBe("none");
    expect(messagesOf(await visitorSays(key, sessionId, "Thanks, one more question")).map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("a visitor on a socket sees the person join, type and write, and their own messages go to the person", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation();
    const socket = await openWidgetSocket(sessionId, key);
    await socket.next("remaining-messages");
    await tookOver(token, assistantId, sessionId);
    expect((await socket.next("handoff")).handoff).toMatchObject({ state: "taken", agent: { name: "Ada Lovelace" } });
    expect((await agentTypes(token, assistantId, sessionId, true)).status).toBe(204);
    expect(await socket.next("typing")).toMatchObject({ typing: true, name: "Ada Lovelace" });
    await agentSaid(token, assistantId, sessionId, "How can I help?");
    expect((await socket.next("new-message", (d) => d.message.role === "agent")).message).toMatchObject({ role: "agent", author: { initials: "AL" } });
    const id = socket.sendMessage({ content: "[[fail:500]] My parcel is late" });
    expect((await socket.next("new-message", (d) => d.clientMessageId === id)).message.role).toBe("user");
    await socket.next("remaining-messages", () => socket.all("remaining-messages").length >= 2);
    expect(socket.all("thinking")).toEqual([]);
    expect(socket.all("message-error")).toEqual([]);
    await handBack(token, assistantId, sessionId);
    expect((await socket.next("handoff", (d) => d.handoff.state === "none")).handoff.state).toBe("none");
    socket.close();
  });
});

describe("a visitor asks for a person", () => {
  it("202 requested with the owner's texts; the owner is e-mailed once per conversation per interval, with a link", async () => {
    const { token, key, assistantId, sessionId, assistant } = await handoffConversation({ visitorAction: true, businessHours: "Mon–Fri 9–18", replyTime: "within an hour" });
    await visitorSays(key, sessionId, "Where is my order?");
    const handoff = await askedForPerson(key, sessionId);
    expect(handoff).toMatchObject({ state: "requested", businessHours: "Mon–Fri 9–18", replyTime: "within an hour" });
    expect(handoff.askEmailAt).toBe(handoff.requestedAt! + 5 * 60_000);
    const email = await ownerEmail(token);
    const subject = handoffMessages.ownerEmailSubject(assistant.name);
    const asked = async () => (await outbox(email)).filter((e) => e.subject === subject);
    for (let i = 0; i < 60 && (await asked()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const [sent] = await asked();
    expect(sent?.text).toContain("Where is my order?");
    expect(sent?.text).toContain(appRoutes.inboxConversation(assistantId, sessionId));

    // Back to the assistant, then asked again at once: no second e-mail within the interval.
    expect((await visitorHandoff(key, sessionId, { method: "DELETE" })).status).toBe(202);
    expect((await askedForPerson(key, sessionId)).state).toBe("requested");
    await new Promise((r) => setTimeout(r, 300));
    expect(await asked()).toHaveLength(1);

    // Leaving an address: no more ask.
    const left = await askedForPerson(key, sessionId, { email: "visitor@example.com" });
    expect(left.emailLeft).toBe(true);
    expect(left.askEmailAt).toBeUndefined();

    const page = await inboxOf(token, assistantId, "?filter=needs-person");
    expect(page.conversations.map((c) => c.sessionId)).toEqual([sessionId]);
    expect(page.conversations[0]).toMatchObject({ title: "Where is my order?", contactEmail: "visitor@example.com", handoff: { state: "requested" } });
    expect(page.counts.needsPerson).toBe(1);
    const summary = await json(await call("/api/inbox/summary", { token }), inboxSummaryResponse);
    expect(summary.assistants).toEqual([expect.objectContaining({ assistantId, needsPerson: 1 })]);

    // Taken over: the request is answered, the messages wait for the person.
    await tookOver(token, assistantId, sessionId);
    expect((await inboxOf(token, assistantId, "?filter=with-person")).conversations.map((c) => c.sessionId)).toEqual([sessionId]);
  });

  it.each([
    ["en", "Can I talk to a person?"],
    ["fr", "Je voudrais parler à un conseiller"],
    ["ar", "أريد التحدث إلى شخص"],
  ] as const)("the assistant offers a person with no model call (%s), and the visitor can then ask", async (language, text) => {
    const { key, sessionId } = await handoffConversation({ visitorAction: true });
    const frames = await visitorSays(key, sessionId, `${text} [[fail:500]]`);
    expect(frames.some((f) => f.event === "message-error")).toBe(false);
    const reply = messagesOf(frames).find((m) => m.role === "assistant");
    expect(reply).toMatchObject({ content: { data: handoffMessages.offerReply[language] }, offersHandoff: true });
    expect((await visitorView(key, sessionId)).messages[1]?.offersHandoff).toBe(true);
    expect((await askedForPerson(key, sessionId)).state).toBe("requested");
  });

  it("with the action off, a request for a person is answered as any question", async () => {
    const { key, sessionId } = await handoffConversation();
    const reply = messagesOf(await visitorSays(key, sessionId, "Can I talk to a person?")).find((m) => m.role === "assistant");
    expect(reply?.content.data).not.toBe(handoffMessages.offerReply.en);
    expect(reply?.offersHandoff).toBeUndefined();
  });
});

describe("e-mail to a visitor who left", () => {
  it("a person's reply goes by e-mail to the address left when no socket is open, at most once per interval", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation({ visitorAction: true });
    const address = `visitor-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await askedForPerson(key, sessionId, { email: address });
    await tookOver(token, assistantId, sessionId);
    await agentSaid(token, assistantId, sessionId, "Your refund is on its way.");
    const [sent] = await emailsTo(address, 1);
    expect(sent?.text).toContain("Your refund is on its way.");
    await agentSaid(token, assistantId, sessionId, "Anything else?");
    await new Promise((r) => setTimeout(r, 300));
    expect(await outbox(address)).toHaveLength(1);
  });

  it("no e-mail while the visitor's socket is open", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation({ visitorAction: true });
    const address = `visitor-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await askedForPerson(key, sessionId, { email: address });
    const socket = await openWidgetSocket(sessionId, key);
    await socket.next("remaining-messages");
    await tookOver(token, assistantId, sessionId);
    await agentSaid(token, assistantId, sessionId, "I'm here.");
    await socket.next("new-message", (d) => d.message.role === "agent");
    await new Promise((r) => setTimeout(r, 300));
    expect(await outbox(address)).toHaveLength(0);
    socket.close();
  });
});

describe("the inbox", () => {
  it("counts unread visitor messages until the owner reads them", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation();
    await visitorSays(key, sessionId, "First question");
    await visitorSays(key, sessionId, "Second question");
    const page = await inboxOf(token, assistantId);
    expect(page.conversations[0]).toMatchObject({ sessionId, unread: 2, messageCount: 4, previewRole: "assistant" });
    expect(page.counts.unread).toBe(2);
    expect((await markRead(token, assistantId, sessionId)).status).toBe(204);
    expect((await inboxOf(token, assistantId)).conversations[0]?.unread).toBe(0);
  });
});

describe("ends by itself", () => {
  it("a takeover idle past the owner's minutes ends when the alarm comes; the visitor is told", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation({ idleEndMinutes: 10 });
    const socket = await openWidgetSocket(sessionId, key);
    await socket.next("remaining-messages");
    await tookOver(token, assistantId, sessionId);
    await socket.next("handoff");
    const hub = getAssistantHub(env, assistantId);
    const armed = await runInDurableObject(hub, (_i, state) => state.storage.getAlarm());
    expect(armed).not.toBeNull();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 });
    try {
      expect(await runDurableObjectAlarm(hub)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    expect((await socket.next("handoff", (d) => d.handoff.state === "none")).handoff.state).toBe("none");
    expect((await visitorView(key, sessionId)).handoff?.state).toBe("none");
    socket.close();
  });

  it("switching the assistant off ends its takeovers", async () => {
    const { token, assistantId, sessionId } = await handoffConversation();
    await tookOver(token, assistantId, sessionId);
    expect((await call(`/api/public-assistants/${assistantId}`, { token, method: "PUT", json: { isActive: false } })).status).toBe(200);
    const owner = await json(await call(`/api/public-assistants/${assistantId}/chats/${sessionId}`, { token }), visitorSessionResponse);
    expect(owner.session.handoff?.state).toBe("none");
  });

  it("regenerating the key ends its takeovers", async () => {
    const { token, assistantId, sessionId } = await handoffConversation();
    await tookOver(token, assistantId, sessionId);
    expect((await call(`/api/public-assistants/${assistantId}/regenerate-key`, { token, method: "POST" })).status).toBe(200);
    expect((await hubRows(assistantId, sessionId)).session.handoff_state).toBe("none");
  });
});

describe("insights", () => {
  it("counts handoffs requested and taken per day, and the median time to the first reply", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation({ visitorAction: true });
    await askedForPerson(key, sessionId);
    await tookOver(token, assistantId, sessionId);
    await agentSaid(token, assistantId, sessionId, "Hello!");
    await agentSaid(token, assistantId, sessionId, "Still there?");
    const today = (await insightsOf(token, assistantId, 7)).handoffs?.at(-1);
    expect(today).toMatchObject({ requested: 1, taken: 1 });
    expect(today?.medianFirstReplyMs).toEqual(expect.any(Number));
    expect(today!.medianFirstReplyMs!).toBeGreaterThanOrEqual(0);
  });
});

describe("the 0015_handoff migration", () => {
  it("an object created before it keeps its conversations: never handed off, already read, and can be taken over", async () => {
    const { token, key, assistantId, sessionId } = await handoffConversation();
    const hub = getAssistantHub(env, assistantId);
    const now = Date.now();
    await runInDurableObject(hub, async (_instance, state) => {
      const { sql } = state.storage;
      const copy = sql.exec("SELECT * FROM assistant_copy").toArray();
      await state.storage.deleteAll();
      applyStorageMigrations(state.storage, assistantStorageMigrations.slice(0, 14), "assistant");
      for (const r of copy) sql.exec("INSERT INTO assistant_copy (id, record, key_hash, updated_at, loaded_at, secret_keys) VALUES (?, ?, ?, ?, ?, ?)", r.id, r.record, r.key_hash, r.updated_at, r.loaded_at, r.secret_keys);
      sql.exec("INSERT INTO meta (key, value) VALUES ('imported', ?)", String(now));
      sql.exec("INSERT INTO visitor_sessions (id, message_count, started_at, last_message_at, counted) VALUES (?, 2, ?, ?, 1)", sessionId, now - 60_000, now - 1000);
      sql.exec("INSERT INTO visitor_messages (id, session_id, role, content, created_at) VALUES ('m1', ?, 'user', 'Old question', ?)", sessionId, now - 2000);
      sql.exec("INSERT INTO visitor_messages (id, session_id, role, content, created_at) VALUES ('m2', ?, 'assistant', 'Old answer', ?)", sessionId, now - 1000);
      applyStorageMigrations(state.storage, assistantStorageMigrations, "assistant");
    });
    const page = await inboxOf(token, assistantId);
    expect(page.conversations[0]).toMatchObject({ sessionId, unread: 0, handoff: { state: "none" }, title: "Old question" });
    expect((await visitorView(key, sessionId)).handoff).toBeUndefined();
    await tookOver(token, assistantId, sessionId);
    await agentSaid(token, assistantId, sessionId, "Hello from a person");
    expect((await visitorView(key, sessionId)).messages.map((m) => m.role)).toEqual(["user", "assistant", "agent"]);
  });
});
