import { describe, expect, it } from "vitest";
import { chatDetailResponse, chatMessages } from "../../contract";
import { call, json } from "./helpers";
import { fallbackTitle } from "../../worker/chat/title";
import { chatUser } from "./chat-helpers";

describe("chat failures keep the user's message", () => {
  it("a model error sends message-error and leaves the user's message stored", async () => {
    const user = await chatUser();
    const tab = await user.open();
    const clientMessageId = tab.sendMessage({ content: "please fail [[fail:500]]" });
    const error = await tab.next("message-error", (d) => d.clientMessageId === clientMessageId);
    expect(error.error).toBe(chatMessages.modelUnavailable);
    expect(error.message).toMatchObject({ role: "assistant", status: "error", error: chatMessages.modelUnavailable });

    const detail = await json(await call(`/api/chats/${error.chatId}`, { token: user.token }), chatDetailResponse);
    expect(detail.messages.map((m) => [m.role, m.status, m.content.data])).toEqual([
      ["user", "complete", "please fail [[fail:500]]"],
      ["assistant", "error", ""],
    ]);
    // The chat is named from the user's words when the model could not answer.
    expect(detail.chat.title).toBe(fallbackTitle("please fail [[fail:500]]"));
    tab.close();
  });

  it("a stream cut mid-reply keeps the partial reply with status error", async () => {
    const user = await chatUser();
    const tab = await user.open();
    tab.sendMessage({ content: "cut me [[break:4]] [[delay:5]]" });
    const error = await tab.next("message-error");
    expect(error.error).toBe(chatMessages.modelInterrupted);
    const deltas = tab.all("message-delta").map((d) => d.delta).join("");
    expect(deltas.length).toBeGreaterThan(0);
    expect(error.message?.content.data).toBe(deltas);
    const detail = await json(await call(`/api/chats/${error.chatId}`, { token: user.token }), chatDetailResponse);
    expect(detail.messages[1]).toMatchObject({ status: "error", content: { data: deltas } });
    tab.close();
  });

  it("refuses frames it cannot read, unknown chats and a second reply in the same chat", async () => {
    const user = await chatUser();
    const tab = await user.open();
    tab.ws.send("not json");
    expect((await tab.next("message-error")).error).toBe(chatMessages.invalidFrame);
    tab.send({ event: "send-message", data: { content: "x".repeat(40_000), clientMessageId: "long", isGuest: false } });
    expect((await tab.next("message-error", (d) => d.error !== chatMessages.invalidFrame)).error).toMatch(/at most/);

    const unknownChat = tab.sendMessage({ chatId: crypto.randomUUID(), content: "hello" });
    expect((await tab.next("message-error", (d) => d.clientMessageId === unknownChat)).error).toBe(chatMessages.chatNotFound);

    tab.sendMessage({ content: "slow [[tokens:60]] [[delay:20]]" });
    const thinking = await tab.next("thinking");
    const second = tab.sendMessage({ chatId: thinking.chatId, content: "too soon" });
    expect((await tab.next("message-error", (d) => d.clientMessageId === second)).error).toBe(chatMessages.replyInProgress);
    tab.send({ event: "stop", data: { chatId: thinking.chatId } });
    await tab.next("new-message", (d) => d.message.id === thinking.messageId);
    tab.close();
  });

  it("a stream cut before its first token ends with message-error and an empty saved reply", async () => {
    // (Timeouts take the same path; with the provider's 30 s idle limit they are unit-tested instead.)
    const user = await chatUser();
    const tab = await user.open();
    tab.sendMessage({ content: "cut [[break:0]]" });
    const error = await tab.next("message-error");
    expect(error.error).toBe(chatMessages.modelInterrupted);
    expect(error.message).toMatchObject({ status: "error", content: { data: "" } });
    tab.close();
  });
});
