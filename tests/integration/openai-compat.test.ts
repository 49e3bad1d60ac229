import { exports } from "cloudflare:workers";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { openAiChatCompletion, openAiChatCompletionChunk, openAiCompatMessages, openAiErrorBody } from "../../contract";
import { call, json } from "./helpers";
import { createSecretKey } from "./secret-keys-helpers";
import { REFUND_DOC, SHOP_ORIGIN, sendOverSse, startSession, widgetAssistant } from "./widget-helpers";

const PATH = "/api/v1/chat/completions";

const completions = (key: string | null, body: unknown, headers: Record<string, string> = {}) =>
  call(PATH, { json: body, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });

/**
 * A fresh assistant (as `widgetAssistant`) and a secret key for it: /v1 takes secret keys only
 * (`publishable` is the snippet's key, for the widget).
 */
async function apiAssistant(...args: Parameters<typeof widgetAssistant>) {
  const { key: publishable, ...rest } = await widgetAssistant(...args);
  const { key } = await createSecretKey(rest.token, rest.assistant._id);
  return { ...rest, publishable, key };
}

/** The official client, pointed at the worker. */
const client = (apiKey: string) =>
  new OpenAI({
    apiKey,
    baseURL: "http://tala.test/api/v1",
    maxRetries: 0,
    fetch: (url: string | URL | Request, init?: RequestInit) => exports.default.fetch(new Request(url, init)),
  });

/** The `data:` payloads of an OpenAI stream, in order. */
async function dataLines(res: Response): Promise<string[]> {
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  return (await res.text())
    .split("\n\n")
    .filter((b) => b.trim())
    .map((b) => {
      expect(b.startsWith("data: ")).toBe(true);
      return b.slice(6);
    });
}

describe("POST /api/v1/chat/completions", () => {
  it("answers as the assistant, grounded in its documents (not streamed)", async () => {
    const { key } = await apiAssistant();
    const res = await completions(key, {
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Answer in one sentence." },
        { role: "user", content: "Hello" },
        { role: "assistant", content: "Hi! How can I help?" },
        { role: "user", content: "[[echo]] How many days to return a zephyrboard?" },
      ],
    });
    expect(res.status).toBe(200);
    const body = await json(res, openAiChatCompletion);
    expect(body.model).toBe("gpt-4o-mini");
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.choices[0]!.finish_reason).toBe("stop");
    const prompt = JSON.parse(body.choices[0]!.message.content) as { role: string; content: string }[];
    expect(prompt[0]!.content).toContain("within 45 days of delivery");
    expect(prompt[0]!.content).toContain("Answer in one sentence.");
    expect(prompt.slice(1).map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it("streams chat.completion.chunk lines ending with [DONE]", async () => {
    const { key } = await apiAssistant();
    const res = await completions(key, { model: "anything", stream: true, messages: [{ role: "user", content: "refund zephyrboard [[tokens:5]]" }] });
    expect(res.status).toBe(200);
    const lines = await dataLines(res);
    expect(lines.at(-1)).toBe("[DONE]");
    const chunks = lines.slice(0, -1).map((l) => openAiChatCompletionChunk.parse(JSON.parse(l)));
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    const text = chunks.map((c) => c.choices[0]!.delta.content ?? "").join("");
    expect(text.split(" ").filter(Boolean).length).toBeGreaterThanOrEqual(4);
    expect(chunks.filter((c) => c.choices[0]!.delta.content).length).toBeGreaterThanOrEqual(2);
  });

  it("works with the official openai client, streamed and not", async () => {
    const { key, publishable } = await apiAssistant();
    const openai = client(key);
    const completion = await openai.chat.completions.create({ model: "tala", messages: [{ role: "user", content: "[[echo]] zephyrboard refund" }] });
    expect(completion.choices[0]!.message.content).toContain(REFUND_DOC.name);

    const stream = await openai.chat.completions.create({ model: "tala", stream: true, messages: [{ role: "user", content: "refund [[tokens:4]]" }] });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text.length).toBeGreaterThan(0);

    await expect(client("tala_pk_" + "B".repeat(43)).chat.completions.create({ model: "x", messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({ status: 401 });
    // The assistant's own publishable key is refused too, and the client shows why.
    await expect(client(publishable).chat.completions.create({ model: "x", messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({
      status: 401,
      error: { message: openAiCompatMessages.publishableKey, code: "invalid_api_key" },
    });
  });

  it("answers 401 with an OpenAI error body for a missing or bad key", async () => {
    const missing = await completions(null, { messages: [{ role: "user", content: "hi" }] });
    expect(missing.status).toBe(401);
    expect((await json(missing, openAiErrorBody)).error).toMatchObject({ message: openAiCompatMessages.missingKey, type: "invalid_request_error" });
    for (const bad of [`tala_sk_${"C".repeat(43)}`, "sk-not-ours"]) {
      const res = await completions(bad, { messages: [{ role: "user", content: "hi" }] });
      expect(res.status).toBe(401);
      expect((await json(res, openAiErrorBody)).error).toEqual({ message: openAiCompatMessages.invalidKey, type: "invalid_request_error", code: "invalid_api_key", param: null });
    }
  });

  it("refuses an inactive assistant (403) and a bad body (400)", async () => {
    const { key, token, assistant } = await apiAssistant({}, { upload: false });
    const noUser = await completions(key, { messages: [{ role: "system", content: "x" }] });
    expect(noUser.status).toBe(400);
    expect((await json(noUser, openAiErrorBody)).error.message).toBe(openAiCompatMessages.noUserMessage);
    const empty = await completions(key, { messages: [] });
    expect(empty.status).toBe(400);
    const badJson = await call(PATH, { method: "POST", body: "{", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } });
    expect(badJson.status).toBe(400);
    expect((await json(badJson, openAiErrorBody)).error.message).toBe(openAiCompatMessages.invalidJson);

    await call(`/api/public-assistants/${assistant._id}`, { token, method: "PUT", json: { isActive: false } });
    const res = await completions(key, { messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(403);
    expect((await json(res, openAiErrorBody)).error.type).toBe("permission_error");
  });

  it("names the field at fault in the error's param, as OpenAI does", async () => {
    const { key } = await apiAssistant({}, { upload: false });
    const user = { role: "user", content: "hi" };
    const cases: [unknown, string, string][] = [
      [{ model: 5, messages: [user] }, "model", openAiCompatMessages.invalidType("model", "a string")],
      [{ stream: "yes", messages: [user] }, "stream", openAiCompatMessages.invalidType("stream", "a boolean")],
      [{ model: "m" }, "messages", openAiCompatMessages.missingParameter("messages")],
      [{ messages: [user, { role: "bot", content: "x" }] }, "messages[1].role", openAiCompatMessages.invalidValue("messages[1].role", ["system", "developer", "user", "assistant"])],
      [{ messages: [{ role: "user", content: 7 }] }, "messages[0].content", openAiCompatMessages.invalidType("messages[0].content", "a string or an array of content parts")],
    ];
    for (const [body, param, message] of cases) {
      const res = await completions(key, body);
      expect(res.status).toBe(400);
      expect((await json(res, openAiErrorBody)).error).toMatchObject({ type: "invalid_request_error", param, message });
    }
    // The official client surfaces it as OpenAI's would.
    await expect(client(key).chat.completions.create({ model: "tala", stream: "yes" as unknown as false, messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({
      status: 400,
      param: "stream",
    });
  });

  it("shares the daily limit with the widget: L+k concurrent requests, exactly k refused with 429", async () => {
    const L = 10;
    const k = 3;
    const { key, publishable } = await apiAssistant({ config: { dailyLimit: L } }, { upload: false });
    const results = await Promise.all(Array.from({ length: L + k }, (_, i) => completions(key, { messages: [{ role: "user", content: `q${i} [[tokens:1]]` }] })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(L);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(k);
    expect((await json(refused[0]!, openAiErrorBody)).error).toMatchObject({ type: "rate_limit_error", message: openAiCompatMessages.dailyLimitReached });
    // The widget is out for the day too.
    const { sessionId } = await startSession(publishable);
    expect((await sendOverSse(publishable, sessionId, { content: "hello" })).status).toBe(429);
  });

  it("answers CORS preflights and checks a browser's Origin against the allowlist", async () => {
    const { key } = await apiAssistant({ allowedOrigins: [SHOP_ORIGIN] }, { upload: false });
    const pre = await call(PATH, { method: "OPTIONS", headers: { origin: SHOP_ORIGIN, "access-control-request-headers": "authorization, content-type" } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toContain("authorization");
    const evil = await completions(key, { messages: [{ role: "user", content: "hi [[tokens:1]]" }] }, { origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    const ok = await completions(key, { messages: [{ role: "user", content: "hi [[tokens:1]]" }] }, { origin: SHOP_ORIGIN });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    // A server-side client sends no Origin.
    expect((await completions(key, { messages: [{ role: "user", content: "hi [[tokens:1]]" }] })).status).toBe(200);
  });
});
