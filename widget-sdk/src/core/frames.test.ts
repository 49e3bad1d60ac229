import { describe, expect, it } from "vitest";
import { parseWidgetServerFrame, widgetConfigResponse, widgetSessionResponse } from "../../../contract/schemas/widget";
import { isConfig, isSession, parseFrame } from "./frames";

const message = {
  id: "m1",
  chatId: "s1",
  role: "assistant",
  content: { type: "text", data: "Hello" },
  files: [],
  timestamp: 1,
  status: "complete",
  sources: [{ fileId: "f1", name: "faq.txt", excerpt: "Refunds…" }],
};

/** Frames both the contract and the widget refuse. */
const samples: unknown[] = [
  { event: "thinking", data: { chatId: "s1", messageId: "m1" } },
  { event: "thinking", data: { chatId: "s1" } },
  { event: "message-delta", data: { chatId: "s1", messageId: "m1", delta: "He", offset: 0 } },
  { event: "message-delta", data: { chatId: "s1", messageId: "m1", delta: "He", offset: -1 } },
  { event: "message-delta", data: { chatId: "s1", messageId: "m1", delta: 5, offset: 0 } },
  { event: "new-message", data: { message, clientMessageId: "c1", sources: message.sources } },
  { event: "new-message", data: { message: { ...message, files: [{}] } } },
  { event: "new-message", data: { message: { ...message, sources: [{ name: "x" }] } } },
  { event: "new-message", data: { message: { ...message, rating: "up", sources: [{ fileId: "w1", name: "Returns", excerpt: "…", url: "https://shop.example/returns" }] } } },
  { event: "new-message", data: { message: { ...message, sources: [{ fileId: "w1", name: "Returns", excerpt: "…", url: 5 }] } } },
  { event: "message-error", data: { error: "Nope", reason: "session-limit", clientMessageId: "c1" } },
  { event: "message-error", data: { reason: "session-limit" } },
  { event: "remaining-messages", data: { remaining: 2, limit: 10 } },
  // A person taking over: their message (role agent, author), the handoff, their typing.
  { event: "new-message", data: { message: { ...message, role: "agent", sources: undefined, author: { name: "Sam", initials: "S" } } } },
  { event: "new-message", data: { message: { ...message, role: "owner" } } },
  { event: "handoff", data: { chatId: "s1", handoff: { state: "taken", agent: { name: "Sam", initials: "S" } } } },
  { event: "handoff", data: "taken" },
  { event: "typing", data: { chatId: "s1", typing: true, name: "Sam" } },
  { event: "typing", data: null },
  { event: "remaining-messages", data: { remaining: 1.5, limit: 10 } },
  { event: "unknown", data: {} },
  { event: "toString", data: {} },
  { event: "thinking" },
  [],
  "not json",
];

/** Frames only the contract refuses: a field the widget never reads is wrong or missing. */
const lenient: unknown[] = [
  { event: "thinking", data: { messageId: "m1" } },
  { event: "message-delta", data: { messageId: "m1", delta: "He", offset: 0 } },
  { event: "new-message", data: { message: { ...message, chatId: undefined, timestamp: "x" } } },
  // A rating the widget does not know shows no button pressed (view.tsx compares with "up"/"down").
  { event: "new-message", data: { message: { ...message, rating: "meh" } } },
  // The handoff chunk checks a handoff's and a typing frame's fields before it shows any (chunks/handoff.ts).
  { event: "handoff", data: { chatId: "s1", handoff: { state: "maybe" } } },
  { event: "typing", data: { typing: "yes" } },
];

describe("frames: the widget's guards and the contract's parsers", () => {
  it.each(samples.map((s, i) => [i, s]))("agree on sample %i", (_i, sample) => {
    const raw = typeof sample === "string" ? sample : JSON.stringify(sample);
    expect(parseFrame(raw) !== null).toBe(parseWidgetServerFrame(raw) !== null);
  });

  it.each(lenient.map((s, i) => [i, s]))("the widget tolerates lenient sample %i (fields it does not read)", (_i, sample) => {
    const raw = JSON.stringify(sample);
    expect(parseWidgetServerFrame(raw)).toBeNull();
    expect(parseFrame(raw)).not.toBeNull();
  });

  it("accepts a config and a session body the contract accepts", () => {
    const config = {
      assistant: { id: "a", name: "A", headerText: "H", welcomeMessage: "W", primaryColor: "#2962FF", position: "bottom-right", size: "medium", allowAttachments: false, showSources: true },
      limits: { maxMessagesPerSession: 10, dailyLimit: 100 },
    };
    expect(widgetConfigResponse.safeParse(config).success).toBe(true);
    expect(isConfig(config)).toBe(true);
    expect(isConfig({ assistant: {}, limits: {} })).toBe(false);
    // Starter questions: a list of text when present (an older server sends none).
    const withQuestions = { ...config, assistant: { ...config.assistant, starterQuestions: ["Where is my order?"] } };
    expect(widgetConfigResponse.safeParse(withQuestions).success).toBe(true);
    expect(isConfig(withQuestions)).toBe(true);
    expect(isConfig({ ...config, assistant: { ...config.assistant, starterQuestions: "Where is my order?" } })).toBe(false);
    expect(isConfig({ ...config, assistant: { ...config.assistant, starterQuestions: [null] } })).toBe(false);
    const session = { sessionId: "s1", messages: [message], remaining: { session: 9, daily: 99 } };
    expect(widgetSessionResponse.safeParse(session).success).toBe(true);
    expect(isSession(session)).toBe(true);
    expect(isSession({ ...session, remaining: { session: -1, daily: 0 } })).toBe(false);
  });
});
