import { describe, expect, it } from "vitest";
import { chatHistoryResponse, playground, widgetMessages, type WidgetServerFrame } from "../../contract";
import { call, callWithEnv, json } from "./helpers";
import { assistantFootprint, playgroundCall } from "./public-assistants-helpers";
import { REFUND_DOC, sendOverSse, sseFrames, startSession, widgetAssistant } from "./widget-helpers";

const QUESTION = "How many days do I have to return a zephyrboard?";

/** The text the deltas wrote, checked to follow each other without gaps. */
function streamedText(frames: WidgetServerFrame[]): string {
  let text = "";
  for (const f of frames) {
    if (f.event !== "message-delta") continue;
    expect(f.data.offset).toBe(text.length);
    text += f.data.delta;
  }
  return text;
}

const finalAnswer = (frames: WidgetServerFrame[]) => {
  const final = frames.filter((f) => f.event === "new-message").at(-1);
  if (final?.event !== "new-message") throw new Error("no final new-message");
  return final.data;
};

describe("POST /api/public-assistants/:id/playground", () => {
  it("answers the owner as the widget answers a visitor: the same events, prompt, passages and sources", async () => {
    // Sources hidden from visitors: the owner sees them all the same.
    const { token, assistant } = await widgetAssistant({ showSources: false, instructions: "Sign every answer as Zed." });
    const clientMessageId = "pg-1";
    const history = [
      { role: "user" as const, content: "Hello there" },
      { role: "assistant" as const, content: "Hi! Ask me about zephyrboards." },
    ];
    const res = await playgroundCall(token, assistant._id, { content: `[[echo]] ${QUESTION}`, clientMessageId, history, locale: "fr-FR" });
    const frames = await sseFrames(res);
    expect(frames.map((f) => f.event)).toEqual(["new-message", "thinking", ...frames.slice(2, -2).map(() => "message-delta"), "new-message", "remaining-messages"]);
    const [asked, thinking] = frames;
    expect(asked).toMatchObject({ event: "new-message", data: { clientMessageId, message: { role: "user", content: { data: `[[echo]] ${QUESTION}` } } } });
    expect(thinking).toMatchObject({ event: "thinking", data: { clientMessageId } });

    const text = streamedText(frames);
    const final = finalAnswer(frames);
    expect(final.message).toMatchObject({ role: "assistant", status: "complete", content: { data: text } });
    // The mock model echoes its messages: the knowledge prompt, the owner's instructions, the earlier turns, the question.
    const prompt = JSON.parse(text) as { role: string; content: string }[];
    expect(prompt[0]!.role).toBe("system");
    expect(prompt[0]!.content).toContain("within 45 days of delivery");
    expect(prompt[0]!.content).toContain("Sign every answer as Zed.");
    expect(prompt[0]!.content).toContain("fr-FR");
    expect(prompt.slice(1)).toEqual([...history, { role: "user", content: `[[echo]] ${QUESTION}` }]);
    expect(final.sources).toEqual([expect.objectContaining({ name: REFUND_DOC.name, excerpt: expect.stringContaining("45 days") })]);
    expect(final.message.sources).toEqual(final.sources);
    expect(frames.at(-1)).toEqual({ event: "remaining-messages", data: { remaining: playground.throttle.limit - 1, limit: playground.throttle.limit } });
  });

  it("answers with the documents' excerpts in offline mode (no model configured)", async () => {
    const { token, assistant } = await widgetAssistant();
    const res = await callWithEnv({ LLM_BASE_URL: undefined, LLM_MODEL: undefined }, `/api/public-assistants/${assistant._id}/playground`, {
      token,
      json: { content: "zephyrboard refund days", clientMessageId: "off-1" },
    });
    const frames = await sseFrames(res);
    const text = streamedText(frames);
    expect(text.startsWith(widgetMessages.offlineIntro)).toBe(true);
    expect(text).toContain("within 45 days of delivery");
    expect(finalAnswer(frames).sources?.map((s) => s.name)).toEqual([REFUND_DOC.name]);
  });

  it("counts against no visitor limit and leaves nothing in the history, for an inactive assistant too", async () => {
    const dailyLimit = 10;
    const { token, assistant, key } = await widgetAssistant({ config: { dailyLimit, maxMessagesPerSession: 50 } });
    const before = await assistantFootprint(assistant._id);
    // More playground messages than the assistant's whole day allows visitors.
    for (let i = 0; i <= dailyLimit; i++) {
      const frames = await sseFrames(await playgroundCall(token, assistant._id, { content: `refund zephyrboard [[tokens:2]] ${i}` }));
      expect(frames.map((f) => f.event)).not.toContain("message-error");
    }
    expect(await assistantFootprint(assistant._id)).toEqual(before);
    const history = await json(await call(`/api/public-assistants/${assistant._id}/chats`, { token }), chatHistoryResponse);
    expect(history.total).toBe(0);
    // The visitors' day is untouched.
    const { sessionId, remaining } = await startSession(key);
    expect(remaining.daily).toBe(dailyLimit);
    expect((await sseFrames(await sendOverSse(key, sessionId, { content: "refund [[tokens:2]]" }))).at(-1)).toEqual({
      event: "remaining-messages",
      data: { remaining: dailyLimit - 1, limit: dailyLimit },
    });

    // Switched off, its widget refuses visitors; its owner can still try it.
    await call(`/api/public-assistants/${assistant._id}`, { token, method: "PUT", json: { isActive: false } });
    const frames = await sseFrames(await playgroundCall(token, assistant._id, { content: "refund zephyrboard [[tokens:2]]" }));
    expect(finalAnswer(frames).message.status).toBe("complete");
  });

  it("reports a failed model answer with message-error and its reason", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const frames = await sseFrames(await playgroundCall(token, assistant._id, { content: "please fail [[fail:500]]", clientMessageId: "f1" }));
    expect(frames.map((f) => f.event)).toEqual(["new-message", "thinking", "message-error", "remaining-messages"]);
    expect(frames[2]).toMatchObject({ event: "message-error", data: { reason: "reply-failed", clientMessageId: "f1", message: { status: "error" } } });
  });

  it("passes attached text to the model when the assistant allows attachments", async () => {
    const { token, assistant } = await widgetAssistant({ config: { allowAttachments: true } }, { upload: false });
    const frames = await sseFrames(
      await playgroundCall(token, assistant._id, { content: "[[echo]] Summarise the file", files: [{ name: "notes.txt", text: "The gate code is 4321." }] }),
    );
    expect(streamedText(frames)).toContain("The gate code is 4321.");
    expect(frames[0]).toMatchObject({ event: "new-message", data: { message: { files: [{ name: "notes.txt" }] } } });
  });
});
