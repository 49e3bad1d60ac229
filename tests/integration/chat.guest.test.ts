import { describe, expect, it } from "vitest";
import { chatDetailResponse, chatGuestSessionHeader, chatListResponse, chatMessages, chatResponse, guestQuota, publicRoutes, serverMessages } from "../../contract";
import { chatGuest, mockReply, newGuestId } from "./chat-helpers";
import { getChatRoom } from "../../worker/durable-objects/stubs";
import { consumeRateLimit, peekRateLimit } from "../../worker/services/rate-limit";
import { call, expectError, json, randomIp } from "./helpers";

describe("chat for guests", () => {
  it("streams replies, keeps the chat in the room, and announces the messages left", async () => {
    const guest = chatGuest();
    const tab = await guest.open();
    const start = await tab.next("remaining-messages");
    expect(start).toEqual({ remaining: guestQuota.perGuestPerDay, limit: guestQuota.perGuestPerDay, scope: "guest" });

    tab.sendMessage({ content: "hi as a guest", isGuest: true });
    const final = await tab.next("new-message", (d) => d.message.role === "assistant");
    expect(final.message).toMatchObject({ status: "complete", content: { data: mockReply("hi as a guest") } });
    expect(final.chat?.title).toBeTruthy();
    const after = await tab.next("remaining-messages", (d) => d.remaining < guestQuota.perGuestPerDay);
    expect(after.remaining).toBe(guestQuota.perGuestPerDay - 1);

    // The chat lives in the guest's room: the next message continues it with its history.
    tab.sendMessage({ chatId: final.message.chatId, content: "[[echo]]", isGuest: true });
    const echo = await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.id !== final.message.id);
    const sent = JSON.parse(echo.message.content.data) as { role: string; content: string }[];
    expect(sent.map((m) => m.content)).toEqual(["hi as a guest", final.message.content.data, "[[echo]]"]);
    tab.close();
  });

  it(`L+k concurrent messages against a quota of L are refused exactly k times`, { timeout: 30_000 }, async () => {
    const L = guestQuota.perGuestPerDay;
    const k = 3;
    const guest = chatGuest();
    const tabs = await Promise.all([guest.open(), guest.open(), guest.open()]);
    const ids = Array.from({ length: L + k }, (_, i) => {
      const tab = tabs[i % tabs.length]!;
      return { tab, id: tab.sendMessage({ content: `message ${i} [[tokens:3]]`, isGuest: true }) };
    });
    const outcomes = await Promise.all(
      ids.map(({ tab, id }) =>
        Promise.race([
          tab.next("message-error", (d) => d.clientMessageId === id, 25_000).then((d) => ({ refused: true, error: d.error })),
          tab.next("new-message", (d) => d.clientMessageId === id, 25_000).then(() => ({ refused: false, error: "" })),
        ]),
      ),
    );
    const refused = outcomes.filter((o) => o.refused);
    expect(refused.length).toBe(k);
    for (const r of refused) {
      expect(r.error).toBe(chatMessages.guestQuotaExhausted(publicRoutes.register));
      expect(r.error).toContain("/register");
    }
    const zero = await tabs[0]!.next("remaining-messages", (d) => d.remaining === 0);
    expect(zero.limit).toBe(L);
    for (const t of tabs) t.close();
  });
});

describe("guest chats are erased after a day idle", () => {
  it("the room's alarm deletes its chats once nobody is connected", async () => {
    const { env, runDurableObjectAlarm } = await import("cloudflare:test");
    const guest = chatGuest();
    const tab = await guest.open();
    tab.sendMessage({ content: "remember me", isGuest: true });
    const reply = await tab.next("new-message", (d) => d.message.role === "assistant");
    const room = env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(guest.guestId));

    // Still connected: the alarm only pushes itself back, and the chat goes on.
    expect(await runDurableObjectAlarm(room)).toBe(true);
    const next = tab.sendMessage({ chatId: reply.message.chatId, content: "and now?", isGuest: true });
    expect((await tab.next("new-message", (d) => d.clientMessageId === next)).message.chatId).toBe(reply.message.chatId);
    await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.id !== reply.message.id);
    tab.close();
    await new Promise((r) => setTimeout(r, 100));

    expect(await runDurableObjectAlarm(room)).toBe(true);
    const again = await guest.open();
    const id = again.sendMessage({ chatId: reply.message.chatId, content: "still there?", isGuest: true });
    expect((await again.next("message-error", (d) => d.clientMessageId === id)).error).toBe(chatMessages.chatNotFound);
    again.close();
  });
});

describe("which daily limit is speaking", () => {
  it("a new guest on a busy network hears the network's shared pool, and is refused by it with a message that says so", async () => {
    const { env } = await import("cloudflare:test");
    const ip = randomIp();
    const spent = guestQuota.perIpPerDay - 2;
    // Other guests of the same network have used most of the network's pool today.
    await consumeRateLimit(env, "guest-messages:ip", ip, { limit: guestQuota.perIpPerDay, windowMs: guestQuota.windowMs }, spent);
    const guest = chatGuest(ip);
    const tab = await guest.open();
    expect(await tab.next("remaining-messages")).toEqual({ remaining: 2, limit: guestQuota.perGuestPerDay, scope: "network" });
    for (let i = 0; i < 2; i++) {
      const sent = tab.sendMessage({ content: `network message ${i} [[tokens:2]]`, isGuest: true });
      const thinking = await tab.next("thinking", (d) => d.clientMessageId === sent);
      await tab.next("new-message", (d) => d.message.id === thinking.messageId && d.message.status === "complete");
    }
    const id = tab.sendMessage({ content: "one too many", isGuest: true });
    const refused = await tab.next("message-error", (d) => d.clientMessageId === id);
    expect(refused.error).toBe(chatMessages.guestNetworkQuotaExhausted(publicRoutes.register));
    // The network's pool refused it, not the guest's own quota: that one is given back.
    const own = await peekRateLimit(env, "guest-messages:guest", guest.guestId, { limit: guestQuota.perGuestPerDay, windowMs: guestQuota.windowMs });
    expect(own.remaining).toBe(guestQuota.perGuestPerDay - 2);
    tab.close();
  });
});

describe("a guest's chat history (GET /api/chats with X-Guest-Session-Id)", () => {
  const as = (guestId: string) => ({ headers: { [chatGuestSessionHeader]: guestId } });

  it("lists, opens, renames and deletes the guest's own chats, read in their room", async () => {
    const guest = chatGuest();
    const tab = await guest.open();
    tab.sendMessage({ content: "first guest question", isGuest: true });
    const first = await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.status === "complete");
    tab.sendMessage({ content: "second guest question", isGuest: true });
    const second = await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.status === "complete" && d.message.id !== first.message.id);
    tab.close();

    const list = await json(await call("/api/chats", as(guest.guestId)), chatListResponse);
    expect(list.chats.map((c) => c.id)).toEqual([second.message.chatId, first.message.chatId]);
    const found = await json(await call("/api/chats?search=SECOND", as(guest.guestId)), chatListResponse);
    expect(found.chats.map((c) => c.id)).toEqual([second.message.chatId]);
    const detail = await json(await call(`/api/chats/${first.message.chatId}`, as(guest.guestId)), chatDetailResponse);
    expect(detail.messages.map((m) => [m.role, m.content.data])).toEqual([
      ["user", "first guest question"],
      ["assistant", mockReply("first guest question")],
    ]);
    const renamed = await json(await call(`/api/chats/${first.message.chatId}`, { ...as(guest.guestId), method: "PATCH", json: { title: "Mine" } }), chatResponse);
    expect(renamed.chat.title).toBe("Mine");
    // A guest has no projects.
    expect((await call(`/api/chats/${first.message.chatId}`, { ...as(guest.guestId), method: "PATCH", json: { projectId: crypto.randomUUID() } })).status).toBe(404);
    expect((await call(`/api/chats/${second.message.chatId}`, { ...as(guest.guestId), method: "DELETE" })).status).toBe(204);
    expect((await json(await call("/api/chats", as(guest.guestId)), chatListResponse)).total).toBe(1);
  });

  it("never shows one guest another's chats, and refuses a missing or malformed id", async () => {
    const guest = chatGuest();
    const tab = await guest.open();
    tab.sendMessage({ content: "private guest words", isGuest: true });
    const done = await tab.next("new-message", (d) => d.message.role === "assistant" && d.message.status === "complete");
    tab.close();
    const other = newGuestId();
    expect((await json(await call("/api/chats?search=private", as(other)), chatListResponse)).total).toBe(0);
    expect((await call(`/api/chats/${done.message.chatId}`, as(other))).status).toBe(404);
    expect((await call(`/api/chats/${done.message.chatId}`, { ...as(other), method: "DELETE" })).status).toBe(404);
    await expectError(await call("/api/chats"), 401, serverMessages.authRequired);
    await expectError(await call("/api/chats", as("guest-1-short")), 401, chatMessages.guestIdInvalid);
    // Reading with an id that never chatted creates nothing (no room storage, no alarm).
    const unused = newGuestId();
    expect((await json(await call("/api/chats", as(unused)), chatListResponse)).total).toBe(0);
    const { env, runInDurableObject } = await import("cloudflare:test");
    await runInDurableObject(getChatRoom(env, unused), async (_room, state) => {
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'chats'").one().n).toBe(0);
      expect(await state.storage.getAlarm()).toBeNull();
    });
    // Projects and settings stay for accounts only.
    expect((await call("/api/projects", as(guest.guestId))).status).toBe(401);
  });
});

