import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { openAiChatCompletion, openAiChatCompletionChunk, qaListResponse } from "../../contract";
import type { HubCore } from "../../worker/assistant/hub-core";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, json } from "./helpers";
import { addQa } from "./qa-helpers";
import { createSecretKey } from "./secret-keys-helpers";
import { widgetAssistant } from "./widget-helpers";

/**
 * Curated answers beyond the widget: /v1/chat/completions uses them as a visitor's turn does, and
 * the matcher's index in the assistant's object follows the owner's writes in place.
 */

const completions = (key: string, body: unknown) => call("/api/v1/chat/completions", { json: body, headers: { authorization: `Bearer ${key}` } });

async function apiAssistant() {
  const { token, assistant } = await widgetAssistant();
  const { key } = await createSecretKey(token, assistant._id);
  return { token, assistant, key };
}

const usesOf = async (token: string, assistantId: string, qaId: string) =>
  (await json(await call(`/api/public-assistants/${assistantId}/qa`, { token }), qaListResponse)).qa.find((p) => p.id === qaId)?.uses;

const ANSWER = "Start a return from **Orders** in your account, print the label, and drop the parcel at any post office within 30 days.";

describe("curated answers over /v1/chat/completions", () => {
  it("an exact pair is the completion, without the model, and counts a use", async () => {
    const { token, assistant, key } = await apiAssistant();
    const pair = await addQa(token, assistant._id, { question: "How do I return an item?", answer: ANSWER, mode: "exact" });
    // The mock model never says the pair's text word for word.
    const res = await completions(key, { model: "any", messages: [{ role: "user", content: "how do i retrun an item" }] });
    expect(res.status).toBe(200);
    const body = await json(res, openAiChatCompletion);
    expect(body.choices[0]!.message.content).toBe(ANSWER);
    expect(body.choices[0]!.finish_reason).toBe("stop");
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
    expect(await usesOf(token, assistant._id, pair.id)).toBe(1);
  });

  it("an exact pair streams as OpenAI's chunks, in several deltas, ending with [DONE]", async () => {
    const { token, assistant, key } = await apiAssistant();
    await addQa(token, assistant._id, { question: "How do I return an item?", answer: ANSWER, mode: "exact" });
    const res = await completions(key, { model: "any", stream: true, messages: [{ role: "user", content: "How do I return an item?" }] });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const lines = (await res.text()).split("\n\n").filter((b) => b.trim()).map((b) => b.replace(/^data: /, ""));
    expect(lines.at(-1)).toBe("[DONE]");
    const chunks = lines.slice(0, -1).map((l) => openAiChatCompletionChunk.parse(JSON.parse(l)));
    expect(chunks.filter((c) => c.choices[0]!.delta.content).length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? "").join("")).toBe(ANSWER);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
  });

  it("a guiding pair is the first passage of the model's prompt, before the documents", async () => {
    const { token, assistant, key } = await apiAssistant();
    const guide = "Zephyrboards bought in a sale are returned within 14 days only.";
    await addQa(token, assistant._id, { question: "How many days do I have to return a zephyrboard?", answer: guide, mode: "guide" });
    const res = await completions(key, { model: "any", messages: [{ role: "user", content: "[[echo]] How many days do I have to return a zephyrboard?" }] });
    const prompt = JSON.parse((await json(res, openAiChatCompletion)).choices[0]!.message.content) as { role: string; content: string }[];
    const system = prompt[0]!.content;
    expect(system).toContain(guide);
    expect(system).toContain("within 45 days of delivery");
    expect(system.indexOf(guide)).toBeLessThan(system.indexOf("within 45 days of delivery"));
  });
});

describe("curated answers: the matcher's index in the assistant's object", () => {
  /** The object's index and what `question` gets from it, read inside the object. */
  const inHub = (assistantId: string, question: string) =>
    runInDurableObject(getAssistantHub(env, assistantId), (instance, state) => {
      const { qa } = (instance as unknown as { core: HubCore }).core;
      const index = qa.index(state.storage);
      return { index, used: index.match(question, "balanced").used?.qaId ?? null };
    });

  it("follows adds, edits and deletes in place, and is rebuilt when the pairs changed behind it", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const id = assistant._id;
    const first = await addQa(token, id, { question: "Do you offer gift wrapping?", answer: "Yes." });
    const built = await inHub(id, "gift wrapping");
    expect(built.used).toBe(first.id);
    const second = await addQa(token, id, { question: "Do you ship to Norway?", answer: "Yes, in 5 days." });
    const added = await inHub(id, "do you ship to norway");
    expect(added.index).toBe(built.index);
    expect(added.used).toBe(second.id);
    await call(`/api/public-assistants/${id}/qa/${second.id}`, { token, method: "PATCH", json: { question: "Do you ship to Iceland?" } });
    expect(await inHub(id, "do you ship to norway")).toMatchObject({ index: built.index, used: null });
    expect((await inHub(id, "do you ship to iceland")).used).toBe(second.id);
    await call(`/api/public-assistants/${id}/qa/${first.id}`, { token, method: "DELETE" });
    expect(await inHub(id, "gift wrapping")).toMatchObject({ index: built.index, used: null });
    // Another writer (an isolate with its own copy, a restore) moved the revision: rebuilt from storage.
    await runInDurableObject(getAssistantHub(env, id), (_instance, state) => {
      state.storage.sql.exec("UPDATE qa_pairs SET question = 'Do you ship to Greenland?' WHERE id = ?", second.id);
      state.storage.sql.exec("UPDATE qa_phrasings SET normalized = 'do you ship to greenland' WHERE pair_id = ?", second.id);
      state.storage.sql.exec("UPDATE qa_state SET revision = revision + 1 WHERE id = 1");
    });
    const rebuilt = await inHub(id, "do you ship to greenland");
    expect(rebuilt.index).not.toBe(built.index);
    expect(rebuilt.used).toBe(second.id);
  });
});
