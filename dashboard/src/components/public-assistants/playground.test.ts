import { describe, expect, it } from "vitest";
import { playground, widgetMessages, type WidgetMessage, type WidgetServerFrame } from "../../../../contract";
import { initialPlayground, playgroundHistory, playgroundReducer, type PlaygroundAction, type PlaygroundMessage, type PlaygroundState } from "./playground";

const run = (actions: PlaygroundAction[], state: PlaygroundState = initialPlayground) => actions.reduce(playgroundReducer, state);
const frame = (f: WidgetServerFrame): PlaygroundAction => ({ type: "frame", frame: f, at: 5 });
const saved = (over: Partial<WidgetMessage>): WidgetMessage => ({
  id: "x",
  chatId: "p",
  role: "user",
  content: { type: "text", data: "" },
  files: [],
  timestamp: 1,
  status: "complete",
  ...over,
});
const source = { fileId: "f1", name: "policies.pdf", excerpt: "Check-in starts at 14:00." };

describe("playgroundReducer", () => {
  it("builds a streamed answer from the server's events, with its sources", () => {
    const state = run([
      { type: "send", id: "c1", text: "Check-in?", at: 1 },
      frame({ event: "new-message", data: { message: saved({ id: "u1", content: { type: "text", data: "Check-in?" } }), clientMessageId: "c1" } }),
      frame({ event: "thinking", data: { chatId: "p", messageId: "a1", clientMessageId: "c1" } }),
      frame({ event: "message-delta", data: { chatId: "p", messageId: "a1", delta: "At ", offset: 0 } }),
      frame({ event: "message-delta", data: { chatId: "p", messageId: "a1", delta: "At ", offset: 0 } }),
      frame({ event: "message-delta", data: { chatId: "p", messageId: "a1", delta: "14:00", offset: 3 } }),
    ]);
    expect(state.busy).toBe(true);
    expect(state.messages.map((m) => [m.id, m.status, m.text])).toEqual([
      ["c1", "complete", "Check-in?"],
      ["a1", "streaming", "At 14:00"],
    ]);
    const done = run(
      [
        frame({ event: "new-message", data: { message: saved({ id: "a1", role: "assistant", content: { type: "text", data: "At 14:00 [policies.pdf]" }, timestamp: 9 }), sources: [source] } }),
        frame({ event: "remaining-messages", data: { remaining: 19, limit: 20 } }),
        { type: "done" },
      ],
      state,
    );
    expect(done.busy).toBe(false);
    expect(done.remaining).toEqual({ remaining: 19, limit: 20 });
    expect(done.messages[1]).toEqual({ id: "a1", role: "assistant", text: "At 14:00 [policies.pdf]", status: "complete", timestamp: 9, sources: [source] });
  });

  it("marks what failed: a refused message, a failed answer with its partial text, a stream cut short", () => {
    const refused = run([{ type: "send", id: "c1", text: "hi", at: 1 }, { type: "failed", id: "c1", error: "Too quick." }]);
    expect(refused.busy).toBe(false);
    expect(refused.messages[0]).toMatchObject({ status: "error", error: "Too quick." });

    const failed = run([
      { type: "send", id: "c2", text: "hi", at: 1 },
      frame({ event: "thinking", data: { chatId: "p", messageId: "a2" } }),
      frame({ event: "message-delta", data: { chatId: "p", messageId: "a2", delta: "Par", offset: 0 } }),
      frame({ event: "message-error", data: { error: "The model failed.", reason: "reply-failed", messageId: "a2", message: saved({ id: "a2", role: "assistant", content: { type: "text", data: "Partial" }, status: "error" }) } }),
      { type: "done" },
    ]);
    expect(failed.messages[1]).toMatchObject({ id: "a2", status: "error", text: "Partial", error: "The model failed." });

    const cut = run([{ type: "send", id: "c3", text: "hi", at: 1 }, frame({ event: "thinking", data: { chatId: "p", messageId: "a3" } }), { type: "done" }]);
    expect(cut.messages[1]).toMatchObject({ status: "error", error: widgetMessages.replyFailed });
  });

  it("keeps a stopped answer's text, as stopped (and it counts as history)", () => {
    const stopped = run([
      { type: "send", id: "c4", text: "hi", at: 1 },
      frame({ event: "thinking", data: { chatId: "p", messageId: "a4" } }),
      frame({ event: "message-delta", data: { chatId: "p", messageId: "a4", delta: "Half an", offset: 0 } }),
      { type: "done", stopped: true },
    ]);
    expect(stopped.busy).toBe(false);
    expect(stopped.messages[1]).toMatchObject({ status: "stopped", text: "Half an" });
    expect(stopped.messages[1]!.error).toBeUndefined();
    expect(playgroundHistory(stopped.messages).map((t) => t.content)).toEqual(["hi", "Half an"]);
  });

  it("clears the conversation", () => {
    expect(run([{ type: "send", id: "c1", text: "hi", at: 1 }, { type: "clear" }])).toEqual(initialPlayground);
  });
});

describe("playgroundHistory", () => {
  const msg = (id: string, role: "user" | "assistant", text: string, status: PlaygroundMessage["status"] = "complete"): PlaygroundMessage => ({ id, role, text, status, timestamp: 0 });

  it("keeps accepted questions and finished answers, oldest first", () => {
    expect(
      playgroundHistory([msg("1", "user", "a"), msg("2", "assistant", "b"), msg("3", "user", "c", "error"), msg("4", "user", "d"), msg("5", "assistant", "e", "error"), msg("6", "assistant", "f", "stopped")]),
    ).toEqual([
      { role: "user", content: "a" },
      { role: "assistant", content: "b" },
      { role: "user", content: "d" },
      { role: "assistant", content: "f" },
    ]);
  });

  it("sends the latest turns within the contract's bounds", () => {
    const many = Array.from({ length: playground.maxHistoryMessages + 4 }, (_, i) => msg(String(i), i % 2 ? "assistant" : "user", `t${i}`));
    const turns = playgroundHistory(many);
    expect(turns).toHaveLength(playground.maxHistoryMessages);
    expect(turns.at(-1)!.content).toBe(`t${many.length - 1}`);

    const long = "x".repeat(playground.maxHistoryChars - 10);
    const bounded = playgroundHistory([msg("1", "user", "old question"), msg("2", "assistant", long), msg("3", "user", "short")]);
    expect(bounded.map((t) => t.content)).toEqual([long, "short"]);
    expect(playgroundHistory([msg("1", "assistant", "y".repeat(playground.maxHistoryChars + 1))])).toEqual([]);
  });
});
