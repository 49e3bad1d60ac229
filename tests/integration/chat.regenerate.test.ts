/**
 * Regenerate: the `regenerate` frame writes the chat's last reply again in place, its
 * earlier texts kept as versions; Retry of a failed reply is the same frame. Happy paths, refusals,
 * another owner's chat, and the guest quota. The mock model's [[take]] cue numbers its replies to
 * one text, [[failfirst:500]] fails only the first (tests/mock-model).
 */
import { describe, expect, it } from "vitest";
import { chatDetailResponse, chatGuestSessionHeader, chatListResponse, chatMessages, clientFrames, guestQuota, publicRoutes, regenerateMessages } from "../../contract";
import { getUserRoom } from "../../worker/durable-objects/stubs";
import { RoomStore } from "../../worker/chat/room-store";
import { consumeRateLimit, peekRateLimit } from "../../worker/services/rate-limit";
import { chatGuest, chatUser, mockReply, type TestSocket } from "./chat-helpers";
import { call, json } from "./helpers";

/** Sends `content` and waits for its reply to end; returns the reply's final message. */
async function ask(tab: TestSocket, content: string, extra: { chatId?: string; isGuest?: boolean } = {}) {
  const sent = tab.sendMessage({ content, ...extra });
  const thinking = await tab.next("thinking", (d) => d.clientMessageId === sent);
  const end = await Promise.race([
    tab.next("new-message", (d) => d.message.id === thinking.messageId && d.message.status !== "streaming").then((d) => d.message),
    tab.next("message-error", (d) => d.messageId === thinking.messageId).then((d) => d.message!),
  ]);
  return end;
}

const regenerate = (tab: TestSocket, chatId: string, messageId: string) => tab.send(clientFrames.regenerate({ chatId, messageId }));

/** The final new-message of a regenerate of `messageId` (its versions listed). */
async function regenerated(tab: TestSocket, messageId: string) {
  return tab.next("new-message", (d) => d.message.id === messageId && d.message.status !== "streaming" && (d.message.versions?.length ?? 0) > 1, 15_000);
}

describe("regenerate writes the last reply again in place", () => {
  it("replaces the reply under its id in every tab, keeps both versions, and the chat still has one question and one answer", async () => {
    const user = await chatUser();
    const [tab, other] = await Promise.all([user.open(), user.open()]);
    const tag = crypto.randomUUID().slice(0, 8);
    const question = `regen ${tag} [[take]]`;
    const first = await ask(tab, question);
    expect(first.content.data).toContain(`(take 1)`);
    const framesBefore = tab.frames.length;

    regenerate(tab, first.chatId, first.id);
    const start = await other.next("new-message", (d) => d.message.id === first.id && d.message.status === "streaming");
    expect(start.message.content.data).toBe("");
    expect(start.message.versions?.map((v) => [v.content.data, v.status])).toEqual([
      [first.content.data, "complete"],
      ["", "streaming"],
    ]);
    const end = await regenerated(other, first.id);
    expect(end.message).toMatchObject({ id: first.id, status: "complete", versionIndex: 1, timestamp: first.timestamp });
    expect(end.message.content.data).toContain(`(take 2)`);
    expect(end.message.versions?.map((v) => v.content.data)).toEqual([first.content.data, end.message.content.data]);
    // The same frames as a reply, under the same id: no new question, no other message.
    const after = tab.frames.slice(framesBefore);
    expect(after.some((f) => f.event === "new-message" && f.data.message.id !== first.id)).toBe(false);
    expect(after.filter((f) => f.event === "message-delta").every((f) => f.event === "message-delta" && f.data.messageId === first.id)).toBe(true);

    const detail = await json(await call(`/api/chats/${first.chatId}`, { token: user.token }), chatDetailResponse);
    expect(detail.messages.map((m) => [m.role, m.content.data])).toEqual([
      ["user", question],
      ["assistant", end.message.content.data],
    ]);
    expect(detail.messages[0]!.versions).toBeUndefined();
    expect(detail.messages[1]!.versions?.map((v) => [v.content.data, v.status])).toEqual([
      [first.content.data, "complete"],
      [end.message.content.data, "complete"],
    ]);
    expect(detail.messages[1]!.versionIndex).toBe(1);

    // Search reads the current version only.
    const search = async (text: string) =>
      (await json(await call(`/api/chats?search=${encodeURIComponent(text)}`, { token: user.token }), chatListResponse)).chats.map((c) => c.id);
    expect(await search(`${tag} (take 2)`)).toEqual([first.chatId]);
    expect(await search(`${tag} (take 1)`)).toEqual([]);

    // A tab that joins later gets the reply with its versions.
    const late = await user.open();
    late.send(clientFrames.join(first.chatId));
    const joined = await late.next("new-message", (d) => d.message.id === first.id);
    expect(joined.message.versions).toHaveLength(2);
    for (const t of [tab, other, late]) t.close();

    // Deleting the chat takes the versions along.
    expect((await call(`/api/chats/${first.chatId}`, { token: user.token, method: "DELETE" })).status).toBe(204);
    const { env, runInDurableObject } = await import("cloudflare:test");
    const left = await runInDurableObject(getUserRoom(env, user.user.id), (_room, state) => new RoomStore(state.storage).sql.exec("SELECT count(*) AS n FROM message_versions").one().n);
    expect(left).toBe(0);
  });

  it("answers from the conversation up to the question: the replaced version is not in the model's context", async () => {
    const user = await chatUser();
    const tab = await user.open();
    const one = await ask(tab, "first question");
    const echo = await ask(tab, `[[echo]] ${crypto.randomUUID()}`, { chatId: one.chatId });
    regenerate(tab, one.chatId, echo.id);
    const end = await regenerated(tab, echo.id);
    const sent = JSON.parse(end.message.content.data) as { role: string; content: string }[];
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(sent[1]!.content).toBe(mockReply("first question"));
    expect(end.message.content.data).toBe(echo.content.data);
    tab.close();
  });

  it("Retry of a failed reply is the same frame: the failed version is kept, the new one replaces it", async () => {
    const user = await chatUser();
    const tab = await user.open();
    const failed = await ask(tab, `flaky ${crypto.randomUUID()} [[failfirst:500]]`);
    expect(failed).toMatchObject({ status: "error", error: chatMessages.modelUnavailable });
    regenerate(tab, failed.chatId, failed.id);
    const end = await regenerated(tab, failed.id);
    expect(end.message.status).toBe("complete");
    expect(end.message.error ?? null).toBeNull();
    expect(end.message.versions?.map((v) => [v.status, v.error ?? null])).toEqual([
      ["error", chatMessages.modelUnavailable],
      ["complete", null],
    ]);
    const detail = await json(await call(`/api/chats/${failed.chatId}`, { token: user.token }), chatDetailResponse);
    expect(detail.messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    tab.close();
  });
});

describe("regenerate is refused, changing nothing", () => {
  it("for a reply that is not the chat's last, a question, an unknown chat, and while a reply is being written", async () => {
    const user = await chatUser();
    const tab = await user.open();
    const one = await ask(tab, "one");
    const two = await ask(tab, "two", { chatId: one.chatId });
    const refusal = async (chatId: string, messageId: string) => {
      const seen = tab.all("message-error").length;
      regenerate(tab, chatId, messageId);
      await tab.next("message-error", (d) => tab.all("message-error").indexOf(d) >= seen);
      const error = tab.all("message-error")[seen]!;
      expect(error.messageId).toBeUndefined();
      return error;
    };
    expect(await refusal(one.chatId, one.id)).toMatchObject({ error: regenerateMessages.notLastReply, chatId: one.chatId });
    // The client's id for the request comes back with its refusal.
    tab.send(clientFrames.regenerate({ chatId: one.chatId, messageId: one.id, clientMessageId: "mine" }));
    expect((await tab.next("message-error", (d) => d.clientMessageId === "mine")).error).toBe(regenerateMessages.notLastReply);
    const detail = await json(await call(`/api/chats/${one.chatId}`, { token: user.token }), chatDetailResponse);
    expect((await refusal(one.chatId, detail.messages[2]!.id)).error).toBe(regenerateMessages.notLastReply);
    expect((await refusal(crypto.randomUUID(), two.id)).error).toBe(chatMessages.chatNotFound);

    const sent = tab.sendMessage({ chatId: one.chatId, content: "slow [[tokens:200]] [[delay:20]]" });
    const thinking = await tab.next("thinking", (d) => d.clientMessageId === sent);
    expect((await refusal(one.chatId, thinking.messageId)).error).toBe(chatMessages.replyInProgress);
    expect((await refusal(one.chatId, two.id)).error).toBe(chatMessages.replyInProgress);
    tab.send(clientFrames.stop(one.chatId));
    await tab.next("new-message", (d) => d.message.id === thinking.messageId && d.message.status === "stopped");

    const after = await json(await call(`/api/chats/${one.chatId}`, { token: user.token }), chatDetailResponse);
    expect(after.messages).toHaveLength(6);
    expect(after.messages.every((m) => m.versions === undefined)).toBe(true);
    expect(after.messages[3]!.content.data).toBe(two.content.data);
    tab.close();
  });

  it("for another user's chat: their reply is not found from this room and stays as it was", async () => {
    const [a, b] = await Promise.all([chatUser(), chatUser()]);
    const tabB = await b.open();
    const bReply = await ask(tabB, "b's question");
    const tabA = await a.open();
    regenerate(tabA, bReply.chatId, bReply.id);
    const refused = await tabA.next("message-error", (d) => d.chatId === bReply.chatId);
    expect(refused.error).toBe(chatMessages.chatNotFound);
    const detail = await json(await call(`/api/chats/${bReply.chatId}`, { token: b.token }), chatDetailResponse);
    expect(detail.messages[1]).toMatchObject({ id: bReply.id, content: { data: bReply.content.data } });
    expect(detail.messages[1]!.versions).toBeUndefined();
    expect(tabB.all("new-message").filter((d) => d.message.id === bReply.id && d.message.status === "streaming")).toEqual([]);
    tabA.close();
    tabB.close();
  });
});

describe("a guest's regenerate counts as a message", () => {
  const perGuest = { limit: guestQuota.perGuestPerDay, windowMs: guestQuota.windowMs };

  it("takes one of the day's messages, in the guest's own room", async () => {
    const { env } = await import("cloudflare:test");
    const guest = chatGuest();
    const tab = await guest.open();
    const first = await ask(tab, `guest ${crypto.randomUUID()} [[take]]`, { isGuest: true });
    await tab.next("remaining-messages", (d) => d.remaining === guestQuota.perGuestPerDay - 1);
    regenerate(tab, first.chatId, first.id);
    const end = await regenerated(tab, first.id);
    expect(end.message.content.data).toContain("(take 2)");
    await tab.next("remaining-messages", (d) => d.remaining === guestQuota.perGuestPerDay - 2);
    expect((await peekRateLimit(env, "guest-messages:guest", guest.guestId, perGuest)).remaining).toBe(guestQuota.perGuestPerDay - 2);
    const detail = await json(await call(`/api/chats/${first.chatId}`, { headers: { [chatGuestSessionHeader]: guest.guestId } }), chatDetailResponse);
    expect(detail.messages).toHaveLength(2);
    expect(detail.messages[1]!.versions).toHaveLength(2);
    tab.close();
  });

  it("is refused with the quota's message once the day's messages are used, and a refused one costs nothing", async () => {
    const { env } = await import("cloudflare:test");
    const guest = chatGuest();
    const tab = await guest.open();
    const first = await ask(tab, `guest ${crypto.randomUUID()}`, { isGuest: true });
    // Not the last reply: refused before counting.
    regenerate(tab, first.chatId, crypto.randomUUID());
    expect((await tab.next("message-error", (d) => d.chatId === first.chatId)).error).toBe(regenerateMessages.notLastReply);
    expect((await peekRateLimit(env, "guest-messages:guest", guest.guestId, perGuest)).remaining).toBe(guestQuota.perGuestPerDay - 1);

    await consumeRateLimit(env, "guest-messages:guest", guest.guestId, perGuest, guestQuota.perGuestPerDay - 1);
    regenerate(tab, first.chatId, first.id);
    const refused = await tab.next("message-error", (d) => d.chatId === first.chatId && d.error !== regenerateMessages.notLastReply);
    expect(refused.error).toBe(chatMessages.guestQuotaExhausted(publicRoutes.register));
    expect(await tab.next("remaining-messages", (d) => d.remaining === 0)).toMatchObject({ remaining: 0 });
    const detail = await json(await call(`/api/chats/${first.chatId}`, { headers: { [chatGuestSessionHeader]: guest.guestId } }), chatDetailResponse);
    expect(detail.messages[1]).toMatchObject({ id: first.id, content: { data: first.content.data }, status: "complete" });
    expect(detail.messages[1]!.versions).toBeUndefined();
    tab.close();
  });
});
