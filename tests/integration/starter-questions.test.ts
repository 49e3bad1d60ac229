import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  publicAssistantListResponse,
  publicAssistantResponse,
  qaMessages,
  starterQuestionLimits as SQ,
  widgetConfigResponse,
  type PublicAssistantBody,
} from "../../contract";
import { call, errorOf, json, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { SHOP_ORIGIN, widgetAssistant, widgetCall } from "./widget-helpers";

const FIELD = "config.customization.starterQuestions";
const withQuestions = (starterQuestions: unknown): PublicAssistantBody => ({ config: { customization: { starterQuestions: starterQuestions as string[] } } });

const update = (token: string, id: string, body: PublicAssistantBody) => call(`/api/public-assistants/${id}`, { token, method: "PUT", json: body });

async function widgetQuestions(key: string) {
  const res = await widgetCall("/api/widget/config", { key, origin: SHOP_ORIGIN });
  expect(res.status).toBe(200);
  return (await json(res, widgetConfigResponse)).assistant.starterQuestions;
}

describe("starter questions: create and update", () => {
  it("are stored trimmed, without blanks or repeats, and given to the widget", async () => {
    const { token, assistant, key } = await widgetAssistant(withQuestions([" Where is my order? ", "", "WHERE IS MY ORDER?", "Do you ship to Spain?"]), { upload: false });
    expect(assistant.config.customization.starterQuestions).toEqual(["Where is my order?", "Do you ship to Spain?"]);
    expect(await widgetQuestions(key)).toEqual(["Where is my order?", "Do you ship to Spain?"]);

    // Another setting changed: the questions stay.
    const kept = await update(token, assistant._id, { config: { customization: { welcomeMessage: "Hi there" } } });
    expect((await json(kept, publicAssistantResponse)).assistant.config.customization.starterQuestions).toEqual(["Where is my order?", "Do you ship to Spain?"]);

    // Replaced: the widget gets the new list on its next start.
    const four = ["How do I return an item?", "x".repeat(SQ.maxChars), "Do you ship to Spain?", "Can I pay later?"];
    const replaced = await update(token, assistant._id, withQuestions(four));
    expect(replaced.status).toBe(200);
    expect((await json(replaced, publicAssistantResponse)).assistant.config.customization.starterQuestions).toEqual(four);
    expect(await widgetQuestions(key)).toEqual(four);

    // Emptied: none.
    expect((await update(token, assistant._id, withQuestions([]))).status).toBe(200);
    expect(await widgetQuestions(key)).toEqual([]);
    const list = await json(await call("/api/public-assistants", { token }), publicAssistantListResponse);
    expect(list.assistants.find((a) => a._id === assistant._id)?.config.customization.starterQuestions).toEqual([]);
  });

  it("default to none", async () => {
    const { token } = await registerUser();
    expect((await createAssistant(token)).config.customization.starterQuestions).toEqual([]);
  });

  it("read a config stored before them as none, in the dashboard and in the widget", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const row = await env.DB.prepare("SELECT config FROM public_assistants WHERE id = ?1").bind(assistant._id).first<{ config: string }>();
    const older = JSON.parse(row!.config) as { customization: Record<string, unknown> };
    delete older.customization.starterQuestions;
    await env.DB.prepare("UPDATE public_assistants SET config = ?1 WHERE id = ?2").bind(JSON.stringify(older), assistant._id).run();

    expect(await widgetQuestions(key)).toEqual([]);
    const list = await json(await call("/api/public-assistants", { token }), publicAssistantListResponse);
    const found = list.assistants.find((a) => a._id === assistant._id)!;
    expect(found.config.customization).toMatchObject({ starterQuestions: [], headerText: assistant.config.customization.headerText });
  });
});

describe("starter questions: validation", () => {
  const cases: [string, unknown, string, string][] = [
    ["five questions", ["a", "b", "c", "d", "e"], qaMessages.tooManyStarterQuestions(SQ.maxQuestions), FIELD],
    ["a question over 80 characters", ["ok", "x".repeat(SQ.maxChars + 1)], qaMessages.starterQuestionTooLong(SQ.maxChars), `${FIELD}.1`],
    ["a single question as text", "Where is my order?", qaMessages.starterQuestionsList, FIELD],
    ["a number in the list", ["Where is my order?", 7], qaMessages.starterQuestionsList, `${FIELD}.1`],
  ];

  it.each(cases)("refuses %s with 400 naming the field", async (_label, value, message, field) => {
    const { token } = await registerUser();
    const res = await call("/api/public-assistants", { token, json: withQuestions(value) });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: "VALIDATION_ERROR", error: message });
    expect(error.fields?.[field]).toBe(message);
  });

  it("refuses a bad update and keeps what was saved", async () => {
    const { token, assistant, key } = await widgetAssistant(withQuestions(["Where is my order?"]), { upload: false });
    const res = await update(token, assistant._id, { name: "Changed", ...withQuestions(["a", "b", "c", "d", "e"]) });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields?.[FIELD]).toBe(qaMessages.tooManyStarterQuestions(SQ.maxQuestions));
    expect(await widgetQuestions(key)).toEqual(["Where is my order?"]);
  });
});
