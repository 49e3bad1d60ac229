import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { openAiCompat, openAiModel, openAiModelList } from "../../contract";
import { json } from "./helpers";
import { API_BASE, apiAssistant, models, openAiClient, workerFetch } from "./openai-models-helpers";
import { REFUND_DOC } from "./widget-helpers";

describe("GET /api/v1/models", () => {
  it("lists the key's assistant as the one model, by the name chat completions answers with", async () => {
    const { key, assistant } = await apiAssistant({}, { upload: false });
    const res = await models(key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const list = await json(res, openAiModelList);
    expect(list).toEqual({
      object: "list",
      data: [{ id: openAiCompat.defaultModel, object: "model", created: Math.floor(assistant.createdAt / 1000), owned_by: openAiCompat.modelOwner }],
    });

    const one = await models(key, openAiCompat.defaultModel);
    expect(one.status).toBe(200);
    expect(await json(one, openAiModel)).toEqual(list.data[0]);
  });

  it("works with the official openai client: list, retrieve, then a chat completion with the listed model", async () => {
    const { key } = await apiAssistant();
    const openai = openAiClient(key);
    const listed = [];
    for await (const model of openai.models.list()) listed.push(model);
    expect(listed.map((m) => m.id)).toEqual([openAiCompat.defaultModel]);
    expect((await openai.models.retrieve(listed[0]!.id)).owned_by).toBe(openAiCompat.modelOwner);

    const completion = await openai.chat.completions.create({ model: listed[0]!.id, messages: [{ role: "user", content: "[[echo]] zephyrboard refund" }] });
    expect(completion.model).toBe(openAiCompat.defaultModel);
    expect(completion.choices[0]!.message.content).toContain(REFUND_DOC.name);
  });

  it("works with the Vercel AI SDK's OpenAI-compatible provider, streamed and not", async () => {
    const { key } = await apiAssistant();
    const tala = createOpenAICompatible({ name: "tala", baseURL: API_BASE, apiKey: key, fetch: workerFetch });
    const { text } = await generateText({ model: tala(openAiCompat.defaultModel), prompt: "[[echo]] zephyrboard refund", maxRetries: 0 });
    expect(text).toContain(REFUND_DOC.name);

    const streamed = streamText({ model: tala(openAiCompat.defaultModel), prompt: "refund [[tokens:4]]", maxRetries: 0 });
    let joined = "";
    for await (const delta of streamed.textStream) joined += delta;
    expect(joined.length).toBeGreaterThan(0);
  });
});
