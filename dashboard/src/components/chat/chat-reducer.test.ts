import { describe, expect, it } from "vitest";
import type { Chat, ChatMessage, ServerFrame } from "../../../../contract";
import {
  applyDelta,
  chatReducer,
  initialChatState,
  isThinking,
  lastReply,
  lastSavedQuestion,
  pendingKey,
  resolveKey,
  streamingReply,
  type ChatState,
  type UiMessage,
} from "./chat-reducer";

const chat = (over: Partial<Chat> = {}): Chat => ({ id: "c1", title: "", projectId: null, model: null, createdAt: 1000, updatedAt: 1000, ...over });
const message = (over: Partial<ChatMessage> = {}): ChatMessage => ({
  id: "m1",
  chatId: "c1",
  role: "user",
  content: { type: "text", data: "Hello" },
  files: [],
  timestamp: 1000,
  status: "complete",
  error: null,
  ...over,
});
const frame = (f: ServerFrame) => ({ type: "frame" as const, frame: f });
const run = (state: ChatState, ...actions: Parameters<typeof chatReducer>[1][]) => actions.reduce(chatReducer, state);

/** A chat whose question m1 was answered with thinking (reply r1). */
function streamingChat(): ChatState {
  return run(
    initialChatState(),
    frame({ event: "new-message", data: { message: message(), chat: chat() } }),
    frame({ event: "thinking", data: { chatId: "c1", messageId: "r1" } }),
  );
}
const reply = (s: ChatState) => s.conversations.c1!.messages.find((m) => m.id === "r1")!;

describe("message-delta offsets", () => {
  it("applyDelta replaces from the offset and refuses a gap", () => {
    expect(applyDelta("Hel", "lo", 3)).toBe("Hello");
    expect(applyDelta("Hello wor", "Hello", 0)).toBe("Hello");
    expect(applyDelta("Hello", "p!", 3)).toBe("Help!");
    expect(applyDelta("He", "lo", 3)).toBeNull();
  });

  it("appends deltas in order and shows the thinking state until the first text", () => {
    let s = streamingChat();
    expect(isThinking(s.conversations.c1)).toBe(true);
    s = run(s, frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "Hi", offset: 0 } }));
    expect(isThinking(s.conversations.c1)).toBe(false);
    s = run(s, frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: " there", offset: 2 } }));
    expect(reply(s).content.data).toBe("Hi there");
    expect(reply(s).status).toBe("streaming");
    expect(streamingReply(s.conversations.c1)?.id).toBe("r1");
  });

  it("a replayed snapshot (offset 0) followed by deltas rebuilds the same text, never doubles it", () => {
    let s = streamingChat();
    s = run(
      s,
      frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "One ", offset: 0 } }),
      frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "two ", offset: 4 } }),
      // reconnect: join replays thinking and the text so far
      frame({ event: "thinking", data: { chatId: "c1", messageId: "r1" } }),
      frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "One two three ", offset: 0 } }),
      frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "four", offset: 14 } }),
    );
    expect(reply(s).content.data).toBe("One two three four");
    expect(s.conversations.c1!.messages.filter((m) => m.id === "r1")).toHaveLength(1);
  });

  it("a delta past the end marks a gap and keeps the text; the next snapshot clears it", () => {
    let s = streamingChat();
    s = run(s, frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "abc", offset: 0 } }));
    s = run(s, frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "xyz", offset: 10 } }));
    expect(reply(s).content.data).toBe("abc");
    expect(s.conversations.c1!.gap).toBe(true);
    s = run(s, frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "abcdefghijxyz", offset: 0 } }));
    expect(s.conversations.c1!.gap).toBe(false);
    expect(reply(s).content.data).toBe("abcdefghijxyz");
  });

  it("a delta for a reply it never saw starts that reply (another tab's chat)", () => {
    const s = run(initialChatState(), frame({ event: "message-delta", data: { chatId: "c9", messageId: "r9", delta: "Hey", offset: 0 } }));
    expect(s.conversations.c9!.messages).toMatchObject([{ id: "r9", role: "assistant", status: "streaming", content: { data: "Hey" } }]);
  });
});

describe("new-message upsert", () => {
  it("swaps this tab's optimistic question for the saved one and moves a new chat under its id", () => {
    const key = pendingKey("draft");
    const optimistic: UiMessage = { ...message({ id: "local:q1", chatId: key, timestamp: 5 }), clientMessageId: "q1", attachments: [{ name: "a.txt", text: "A" }] };
    let s = run(initialChatState(), { type: "sent", key, message: optimistic, projectId: "p1" });
    expect(s.conversations[key]!.streaming).toEqual({ messageId: null });
    expect(isThinking(s.conversations[key])).toBe(true);

    s = run(s, frame({ event: "new-message", data: { message: message({ id: "m1", timestamp: 1000 }), clientMessageId: "q1", chat: chat({ projectId: "p1" }) } }));
    expect(s.conversations[key]).toBeUndefined();
    expect(resolveKey(s, key)).toBe("c1");
    const conv = s.conversations.c1!;
    expect(conv.messages).toHaveLength(1);
    expect(conv.messages[0]).toMatchObject({ id: "m1", content: { data: "Hello" }, attachments: [{ name: "a.txt", text: "A" }] });
    expect(conv.messages[0]!.clientMessageId).toBeUndefined();
    expect(conv.chat?.projectId).toBe("p1");
    expect(conv.streaming).toEqual({ messageId: null }); // the reply is still to come
  });

  it("the final reply ends the stream; the same reply again (with the new title) replaces it in place", () => {
    let s = streamingChat();
    s = run(s, frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "Done", offset: 0 } }));
    const final = message({ id: "r1", role: "assistant", content: { type: "text", data: "Done." }, timestamp: 1001 });
    s = run(s, frame({ event: "new-message", data: { message: final, chat: chat({ title: "Hello" }) } }));
    expect(s.conversations.c1!.streaming).toBeNull();
    expect(reply(s)).toMatchObject({ status: "complete", content: { data: "Done." } });
    s = run(s, frame({ event: "new-message", data: { message: final, chat: chat({ title: "A greeting" }) } }));
    expect(s.conversations.c1!.messages.map((m) => m.id)).toEqual(["m1", "r1"]);
    expect(s.conversations.c1!.chat?.title).toBe("A greeting");
  });

  it("inserts saved messages in time order", () => {
    const s = run(
      initialChatState(),
      frame({ event: "new-message", data: { message: message({ id: "b", timestamp: 20 }) } }),
      frame({ event: "new-message", data: { message: message({ id: "a", timestamp: 10 }) } }),
      frame({ event: "new-message", data: { message: message({ id: "c", timestamp: 30 }) } }),
    );
    expect(s.conversations.c1!.messages.map((m) => m.id)).toEqual(["a", "b", "c"]);
  });

  it("a stopped reply ends the stream and keeps its text", () => {
    let s = streamingChat();
    s = run(s, frame({ event: "new-message", data: { message: message({ id: "r1", role: "assistant", status: "stopped", content: { type: "text", data: "Half" }, timestamp: 1001 }) } }));
    expect(s.conversations.c1!.streaming).toBeNull();
    expect(reply(s)).toMatchObject({ status: "stopped", content: { data: "Half" } });
  });
});

describe("message-error", () => {
  it("a failed reply keeps its saved partial text, status error, and ends the stream", () => {
    let s = streamingChat();
    s = run(s, frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "Partial te", offset: 0 } }));
    const partial = message({ id: "r1", role: "assistant", status: "error", error: "cut off", content: { type: "text", data: "Partial text" }, timestamp: 1001 });
    s = run(s, frame({ event: "message-error", data: { error: "cut off", chatId: "c1", messageId: "r1", clientMessageId: "q1", message: partial } }));
    expect(s.conversations.c1!.streaming).toBeNull();
    expect(reply(s)).toMatchObject({ status: "error", error: "cut off", content: { data: "Partial text" } });
    expect(s.conversations.c1!.messages).toHaveLength(2);
  });

  it("a refused question (never saved) is marked for Retry and no reply is awaited", () => {
    const key = pendingKey("draft");
    let s = run(initialChatState(), { type: "sent", key, message: { ...message({ id: "local:q1", chatId: key }), clientMessageId: "q1" } });
    s = run(s, frame({ event: "message-error", data: { error: "quota", clientMessageId: "q1" } }));
    expect(s.conversations[key]!.messages[0]!.sendError).toBe("quota");
    expect(s.conversations[key]!.streaming).toBeNull();
    expect(lastSavedQuestion(s.conversations[key])).toBeNull();
    s = run(s, { type: "discard", key, clientMessageId: "q1" });
    expect(s.conversations[key]!.messages).toHaveLength(0);
  });

  it("an error without a saved copy marks the streaming reply failed, keeping what arrived", () => {
    let s = streamingChat();
    s = run(s, frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "So far", offset: 0 } }));
    s = run(s, frame({ event: "message-error", data: { error: "Something went wrong", chatId: "c1" } }));
    expect(reply(s)).toMatchObject({ status: "error", error: "Something went wrong", content: { data: "So far" } });
    expect(s.conversations.c1!.streaming).toBeNull();
  });

  it("join of an unknown chat marks it missing", () => {
    let s = run(initialChatState(), { type: "load-state", chatId: "gone", load: "loading" });
    s = run(s, frame({ event: "message-error", data: { error: "This chat no longer exists.", chatId: "gone" } }));
    expect(s.conversations.gone!.load).toBe("missing");
  });
});

describe("REST load merged with live frames", () => {
  it("keeps a reply that streamed further than the saved copy, and newer messages", () => {
    let s = streamingChat();
    s = run(s, frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "Live text longer", offset: 0 } }));
    s = run(s, {
      type: "loaded",
      chat: chat({ title: "T" }),
      messages: [message({ id: "m0", timestamp: 1 }), message(), message({ id: "r1", role: "assistant", status: "streaming", content: { type: "text", data: "Live" }, timestamp: 1001 })],
    });
    const conv = s.conversations.c1!;
    expect(conv.load).toBe("ready");
    expect(conv.messages.map((m) => m.id)).toEqual(["m0", "m1", "r1"]);
    expect(reply(s).content.data).toBe("Live text longer");
    expect(conv.streaming).toEqual({ messageId: "r1" });
  });
});

describe("remaining-messages", () => {
  it("keeps the guest's count", () => {
    const s = run(initialChatState(), frame({ event: "remaining-messages", data: { remaining: 3, limit: 20 } }));
    expect(s.remaining).toEqual({ remaining: 3, limit: 20 });
  });
});

describe("regenerate", () => {
  const version = (data: string, status: ChatMessage["status"] = "complete") => ({ content: { type: "text" as const, data }, status, error: null, createdAt: 1001 });
  /** A chat with one question (m1) and its complete reply (r1). */
  function answeredChat(): ChatState {
    return run(streamingChat(), frame({ event: "new-message", data: { message: message({ id: "r1", role: "assistant", content: { type: "text", data: "First" }, timestamp: 1001 }) } }));
  }

  it("replaces the reply in place while it is written again: no new question, one reply, its versions kept", () => {
    let s = run(answeredChat(), { type: "regenerate-sent", chatId: "c1", clientMessageId: "g1" });
    expect(s.conversations.c1!.streaming).toEqual({ messageId: null });
    expect(lastReply(s.conversations.c1)?.id).toBe("r1");
    const restarted = message({ id: "r1", role: "assistant", status: "streaming", content: { type: "text", data: "" }, timestamp: 1001, versions: [version("First"), version("", "streaming")], versionIndex: 1 });
    s = run(s, frame({ event: "new-message", data: { message: restarted } }), frame({ event: "thinking", data: { chatId: "c1", messageId: "r1" } }));
    expect(s.conversations.c1!.messages.map((m) => [m.id, m.content.data])).toEqual([
      ["m1", "Hello"],
      ["r1", ""],
    ]);
    s = run(s, frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "Second", offset: 0 } }));
    expect(streamingReply(s.conversations.c1)?.content.data).toBe("Second");
    const final = { ...restarted, status: "complete" as const, content: { type: "text" as const, data: "Second" }, versions: [version("First"), version("Second")] };
    s = run(s, frame({ event: "new-message", data: { message: final } }));
    expect(s.conversations.c1!.streaming).toBeNull();
    expect(s.conversations.c1!.messages).toHaveLength(2);
    expect(reply(s).versions?.map((v) => v.content.data)).toEqual(["First", "Second"]);
    expect(s.regenerates).toEqual({});
  });

  it("a refused regenerate only ends this tab's wait: the reply stays as it was", () => {
    let s = run(answeredChat(), { type: "regenerate-sent", chatId: "c1", clientMessageId: "g1" });
    s = run(s, frame({ event: "message-error", data: { error: "Only the last reply…", chatId: "c1", clientMessageId: "g1" } }));
    expect(s.conversations.c1!.streaming).toBeNull();
    expect(reply(s)).toMatchObject({ status: "complete", content: { data: "First" } });
    expect(s.regenerates).toEqual({});
  });

  it("a refusal that comes while another tab's regenerate streams does not fail that reply", () => {
    let s = run(answeredChat(), { type: "regenerate-sent", chatId: "c1", clientMessageId: "g1" });
    const restarted = message({ id: "r1", role: "assistant", status: "streaming", content: { type: "text", data: "" }, timestamp: 1001 });
    s = run(s, frame({ event: "new-message", data: { message: restarted } }), frame({ event: "message-delta", data: { chatId: "c1", messageId: "r1", delta: "Oth", offset: 0 } }));
    s = run(s, frame({ event: "message-error", data: { error: "A reply is still being written", chatId: "c1", clientMessageId: "g1" } }));
    expect(reply(s)).toMatchObject({ status: "streaming", content: { data: "Oth" } });
    expect(s.conversations.c1!.streaming).toEqual({ messageId: "r1" });
  });

  it("lastReply is the last saved message only when it is a reply", () => {
    const s = answeredChat();
    expect(lastReply(s.conversations.c1)?.id).toBe("r1");
    const asked = run(s, { type: "sent", key: "c1", message: { ...message({ id: "local:q2", timestamp: 2000 }), clientMessageId: "q2" } });
    expect(lastReply(asked.conversations.c1)?.id).toBe("r1"); // the pending question is not saved yet
    const saved = run(asked, frame({ event: "new-message", data: { message: message({ id: "m2", timestamp: 2000 }), clientMessageId: "q2" } }));
    expect(lastReply(saved.conversations.c1)).toBeNull();
  });
});
