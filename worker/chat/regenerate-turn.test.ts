import { describe, expect, it } from "vitest";
import { chatLimits, chatMessages, regenerateMessages, type ServerFrame } from "../../contract";
import { ModelError, type GenerateRequest, type ModelProvider } from "../models";
import { ActiveReplies } from "./active-replies";
import { MemoryChatStore } from "./memory-chat-store";
import { runRegenerate } from "./regenerate-turn";
import { runTurn } from "./run-turn";
import { fallbackTitle } from "./title";

/** A provider whose n-th reply is "take n"; records what it was asked. */
function countingProvider() {
  const requests: GenerateRequest[] = [];
  const provider: ModelProvider = {
    name: "fake",
    defaultModel: "fake",
    listModels: async () => ["fake"],
    async *stream(req) {
      requests.push(req);
      yield `take ${requests.length}`;
    },
    complete: async () => "A title",
  };
  return { provider, requests };
}

async function chatWithOneExchange() {
  const { provider, requests } = countingProvider();
  const store = new MemoryChatStore();
  const frames: ServerFrame[] = [];
  const active = new ActiveReplies();
  const deps = { store, provider, active, broadcast: (f: ServerFrame) => frames.push(f) };
  await runTurn(deps, { content: "the question", files: [], clientMessageId: "c", isGuest: false });
  const [question, reply] = [...store.messages.values()];
  return { store, frames, deps, requests, active, question: question!, reply: reply! };
}

describe("runRegenerate", () => {
  it("writes the last reply again under its own id, keeps the old text as a version, and asks the question without the old reply", async () => {
    const { store, frames, deps, requests, reply } = await chatWithOneExchange();
    frames.length = 0;
    await runRegenerate(deps, { chatId: reply.chatId, messageId: reply.id, files: [] });
    expect(frames.map((f) => f.event)).toEqual(["new-message", "thinking", "message-delta", "new-message"]);
    const start = frames[0] as Extract<ServerFrame, { event: "new-message" }>;
    expect(start.data.message).toMatchObject({ id: reply.id, status: "streaming", content: { data: "" }, versionIndex: 1 });
    const end = frames.at(-1) as Extract<ServerFrame, { event: "new-message" }>;
    expect(end.data.message).toMatchObject({ id: reply.id, status: "complete", content: { data: "take 2" }, versionIndex: 1 });
    expect(end.data.message.versions?.map((v) => v.content.data)).toEqual(["take 1", "take 2"]);
    expect([...store.messages.values()].map((m) => m.content.data)).toEqual(["the question", "take 2"]);
    expect(requests.at(-1)!.messages).toEqual([{ role: "user", content: "the question" }]);
  });

  it("keeps at most chatLimits.maxReplyVersions versions, dropping the oldest", async () => {
    const { deps, frames, reply } = await chatWithOneExchange();
    for (let i = 0; i < chatLimits.maxReplyVersions + 1; i++) await runRegenerate(deps, { chatId: reply.chatId, messageId: reply.id, files: [] });
    const end = frames.at(-1) as Extract<ServerFrame, { event: "new-message" }>;
    expect(end.data.message.versions).toHaveLength(chatLimits.maxReplyVersions);
    expect(end.data.message.versions?.[0]?.content.data).toBe("take 3");
  });

  it("names a chat still called by its question's words once Retry of its failed first reply completes", async () => {
    const store = new MemoryChatStore();
    const frames: ServerFrame[] = [];
    let fail = true;
    const provider: ModelProvider = {
      name: "fake",
      defaultModel: "fake",
      listModels: async () => ["fake"],
      async *stream() {
        if (fail) throw new ModelError("http", "down");
        yield "An answer";
      },
      complete: async () => "Weekend plans",
    };
    const deps = { store, provider, active: new ActiveReplies(), broadcast: (f: ServerFrame) => frames.push(f) };
    await runTurn(deps, { content: "what should I do this weekend", files: [], clientMessageId: "c", isGuest: false });
    const [chat] = [...store.chats.values()];
    expect(chat!.title).toBe(fallbackTitle("what should I do this weekend"));
    const reply = [...store.messages.values()].find((m) => m.role === "assistant")!;
    expect(reply.status).toBe("error");
    fail = false;
    await runRegenerate(deps, { chatId: chat!.id, messageId: reply.id, files: [] });
    expect(store.chats.get(chat!.id)!.title).toBe("Weekend plans");
    const last = frames.at(-1) as Extract<ServerFrame, { event: "new-message" }>;
    expect(last.data).toMatchObject({ message: { role: "user" }, chat: { title: "Weekend plans" } });
  });

  it("refuses, changing nothing, a reply that is not the last, a busy chat, and what admit refuses", async () => {
    const { store, deps, question, reply } = await chatWithOneExchange();
    const before = JSON.stringify([...store.messages.values()]);
    await expect(runRegenerate(deps, { chatId: reply.chatId, messageId: question.id, files: [] })).rejects.toThrow(regenerateMessages.notLastReply);
    await expect(runRegenerate(deps, { chatId: "nope", messageId: reply.id, files: [] })).rejects.toThrow(chatMessages.chatNotFound);
    const held = deps.active.reserve(reply.chatId)!;
    await expect(runRegenerate(deps, { chatId: reply.chatId, messageId: reply.id, files: [] })).rejects.toThrow(chatMessages.replyInProgress);
    deps.active.release(held);
    await expect(runRegenerate({ ...deps, admit: async () => "no more today" }, { chatId: reply.chatId, messageId: reply.id, files: [] })).rejects.toThrow("no more today");
    expect(JSON.stringify([...store.messages.values()])).toBe(before);
    expect(deps.active.all()).toEqual([]);
  });
});
