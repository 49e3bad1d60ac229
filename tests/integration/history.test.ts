import { describe, expect, it } from "vitest";
import { chatDebugResponse, chatHistoryExport, chatHistoryResponse, publicAssistantResponse, serverMessages, visitorSessionResponse } from "../../contract";
import { call, expectError, json, registerUser } from "./helpers";
import { createAssistant, seedVisitorSession } from "./public-assistants-helpers";

const base = Date.UTC(2026, 0, 1);

/** `count` sessions whose last activity is base + i minutes (i = 0 is the oldest), two messages each. */
async function seedSessions(assistantId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(
      await seedVisitorSession(assistantId, {
        startedAt: base + i * 60_000,
        messages: [
          { role: "user", text: `question ${i}`, files: [{ name: `photo-${i}.png` }] },
          { role: "assistant", text: `answer ${i}`, sources: [{ fileId: "f1", name: "faq.pdf", excerpt: "Returns within 30 days." }] },
        ],
      }),
    );
  }
  return ids;
}

describe("GET /api/public-assistants/:id/chats", () => {
  it("pages sessions newest activity first, 10 by default, with their messages", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const ids = await seedSessions(assistant._id, 12);
    const newestFirst = [...ids].reverse();

    const page1 = await json(await call(`/api/public-assistants/${assistant._id}/chats?page=1&limit=10`, { token }), chatHistoryResponse);
    expect(page1).toMatchObject({ totalPages: 2, currentPage: 1, total: 12 });
    expect(page1.sessions.map((s) => s._id)).toEqual(newestFirst.slice(0, 10));
    const newest = page1.sessions[0]!;
    expect(newest).toEqual({
      _id: ids[11],
      sessionId: ids[11],
      messageCount: 2,
      lastMessageAt: base + 11 * 60_000 + 2,
      sessionInfo: {
        referrer: "https://shop.example/pricing",
        startedAt: base + 11 * 60_000,
        origin: "https://shop.example",
        userAgent: "Mozilla/5.0 (test)",
        locale: "en-US",
      },
      messages: [
        { id: expect.any(String), role: "user", content: { type: "text", data: "question 11" }, files: [{ name: "photo-11.png" }], timestamp: base + 11 * 60_000 + 1 },
        {
          id: expect.any(String),
          role: "assistant",
          content: { type: "text", data: "answer 11" },
          files: [],
          timestamp: base + 11 * 60_000 + 2,
          sources: [{ fileId: "f1", name: "faq.pdf", excerpt: "Returns within 30 days." }],
        },
      ],
    });

    const page2 = await json(await call(`/api/public-assistants/${assistant._id}/chats?page=2&limit=10`, { token }), chatHistoryResponse);
    expect(page2).toMatchObject({ totalPages: 2, currentPage: 2, total: 12 });
    expect(page2.sessions.map((s) => s._id)).toEqual(newestFirst.slice(10));

    const defaults = await json(await call(`/api/public-assistants/${assistant._id}/chats`, { token }), chatHistoryResponse);
    expect(defaults.sessions).toHaveLength(10);
    expect(defaults.currentPage).toBe(1);

    const past = await json(await call(`/api/public-assistants/${assistant._id}/chats?page=3`, { token }), chatHistoryResponse);
    expect(past).toMatchObject({ sessions: [], totalPages: 2, currentPage: 3, total: 12 });

    const small = await json(await call(`/api/public-assistants/${assistant._id}/chats?page=4&limit=3`, { token }), chatHistoryResponse);
    expect(small.totalPages).toBe(4);
    expect(small.sessions.map((s) => s._id)).toEqual(newestFirst.slice(9, 12));
  });

  it("orders by last activity, a session without messages by its start", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const oldButActive = await seedVisitorSession(assistant._id, { startedAt: base, lastMessageAt: base + 10 * 60_000, messages: [] });
    const recentIdle = await seedVisitorSession(assistant._id, { startedAt: base + 5 * 60_000, lastMessageAt: null });
    const history = await json(await call(`/api/public-assistants/${assistant._id}/chats`, { token }), chatHistoryResponse);
    expect(history.sessions.map((s) => s._id)).toEqual([oldButActive, recentIdle]);
    expect(history.sessions[1]).toMatchObject({ lastMessageAt: null, messageCount: 0, messages: [] });
  });

  it("answers one empty page for an assistant without visitors, and counts sessions on the card", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    expect(await json(await call(`/api/public-assistants/${assistant._id}/chats`, { token }), chatHistoryResponse)).toEqual({
      sessions: [],
      totalPages: 1,
      currentPage: 1,
      total: 0,
    });
    await seedSessions(assistant._id, 3);
    const card = await json(await call(`/api/public-assistants/${assistant._id}`, { token }), publicAssistantResponse);
    expect(card.assistant.stats.totalSessions).toBe(3);
  });
});

describe("GET /api/public-assistants/:id/chats/export", () => {
  it("streams the whole history as chat-history-{id}.json", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Exporter" });
    const ids = await seedSessions(assistant._id, 63); // more than one export page (50)
    const res = await call(`/api/public-assistants/${assistant._id}/chats/export`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="chat-history-${assistant._id}.json"`);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const exported = chatHistoryExport.parse(await res.json());
    expect(exported).toMatchObject({ assistantId: assistant._id, assistantName: "Exporter", total: 63 });
    expect(exported.sessions.map((s) => s._id)).toEqual(ids);
    expect(exported.sessions.every((s) => s.messages.length === 2)).toBe(true);
    expect(exported.sessions[62]!.messages[0]!.content.data).toBe("question 62");
  });

  it("exports a valid empty document when there is no history", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const res = await call(`/api/public-assistants/${assistant._id}/chats/export`, { token });
    const exported = chatHistoryExport.parse(await res.json());
    expect(exported).toMatchObject({ total: 0, sessions: [] });
  });
});

describe("GET /api/public-assistants/:id/chats/debug", () => {
  it("counts the owner's sessions across their assistants and this assistant's, never other owners'", async () => {
    const { token } = await registerUser();
    const first = await createAssistant(token);
    const second = await createAssistant(token);
    await seedSessions(first._id, 3);
    await seedSessions(second._id, 2);
    const stranger = await registerUser();
    const theirs = await createAssistant(stranger.token);
    await seedSessions(theirs._id, 4);

    const stats = await json(await call(`/api/public-assistants/${first._id}/chats/debug`, { token }), chatDebugResponse);
    expect(stats).toEqual({ stats: { totalChatsInDB: 5, assistantChats: 3 } });
    const second_ = await json(await call(`/api/public-assistants/${second._id}/chats/debug`, { token }), chatDebugResponse);
    expect(second_.stats).toEqual({ totalChatsInDB: 5, assistantChats: 2 });
    const strangers = await json(await call(`/api/public-assistants/${theirs._id}/chats/debug`, { token: stranger.token }), chatDebugResponse);
    expect(strangers.stats).toEqual({ totalChatsInDB: 4, assistantChats: 4 });
  });
});

describe("GET /api/public-assistants/:id/chats/:sessionId", () => {
  it("answers one conversation with all its messages, wherever it falls in the pages, as the list shows it", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const ids = await seedSessions(assistant._id, 12);
    // The oldest session is on page 2 of the list: opened by id all the same.
    const res = await call(`/api/public-assistants/${assistant._id}/chats/${ids[0]}`, { token });
    expect(res.status).toBe(200);
    const { session } = await json(res, visitorSessionResponse);
    const page2 = await json(await call(`/api/public-assistants/${assistant._id}/chats?page=2`, { token }), chatHistoryResponse);
    expect(session).toEqual(page2.sessions.find((s) => s._id === ids[0]));
    expect(session.messages.map((m) => m.content.data)).toEqual(["question 0", "answer 0"]);
  });

  it("opens a session past the widget's 30-day window too (the owner's history keeps it)", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const old = await seedVisitorSession(assistant._id, { startedAt: Date.UTC(2020, 0, 1), messages: [{ role: "user", text: "long ago" }] });
    const { session } = await json(await call(`/api/public-assistants/${assistant._id}/chats/${old}`, { token }), visitorSessionResponse);
    expect(session.messages[0]!.content.data).toBe("long ago");
  });

  it("answers 404 for an unknown session, and for an id longer than any session's", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    await expectError(await call(`/api/public-assistants/${assistant._id}/chats/${crypto.randomUUID()}`, { token }), 404, serverMessages.notFound);
    await expectError(await call(`/api/public-assistants/${assistant._id}/chats/${"a".repeat(101)}`, { token }), 404, serverMessages.notFound);
  });
});
