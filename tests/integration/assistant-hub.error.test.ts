import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { openAiCompatMessages, publicAssistantServerMessages, widget, widgetMessages, widgetSocketClose, widgetSessionResponse } from "../../contract";
import { gone } from "../../worker/assistant/gone";
import { hashApiKey } from "../../worker/crypto/api-key";
import type { Env } from "../../worker/env";
import { handleIngestBatch } from "../../worker/queues/ingest";
import type { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import { deletePublicAssistant } from "../../worker/services/public-assistants/delete-public-assistant";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, json } from "./helpers";
import { assistantFootprint, hubFootprint, testServiceContext } from "./public-assistants-helpers";
import { completions, createSecretKey, tinyQuestion } from "./secret-keys-helpers";
import { widgetAssistant, widgetCall } from "./widget-helpers";

/** When an assistant's own object (AssistantHub) fails or is gone. */

/** The hub namespace, with `methods` of every stub failing as an unreachable object would. */
function failingHubs(methods: readonly string[]): DurableObjectNamespace<AssistantHub> {
  const passThrough = <T extends object>(target: T, prop: string | symbol) => {
    const value = Reflect.get(target, prop) as unknown;
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
  };
  return new Proxy(env.ASSISTANT_HUB, {
    get(namespace, prop) {
      if (prop !== "get") return passThrough(namespace, prop);
      return (id: DurableObjectId) =>
        new Proxy(namespace.get(id), {
          get(stub, method) {
            if (typeof method === "string" && methods.includes(method)) return () => Promise.reject(new Error("Durable Object reset because its code was updated."));
            // An RPC method as is: `.bind` on it would be an RPC call of its own.
            return Reflect.get(stub, method) as unknown;
          },
        });
    },
  });
}

const ownerOf = async (assistantId: string) =>
  (await env.DB.prepare("SELECT user_id AS id FROM public_assistants WHERE id = ?1").bind(assistantId).first<{ id: string }>())!.id;

describe("deleting an assistant whose object cannot be erased", () => {
  it("answers a retryable 503 and changes nothing in D1; the retried DELETE erases the object, then the rows", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    await json(await widgetCall("/api/widget/sessions", { key, json: { referrer: "", locale: "en" } }), widgetSessionResponse);
    const ctx = { ...testServiceContext(), env: { ...testServiceContext().env, ASSISTANT_HUB: failingHubs(["erase"]) } };
    await expect(deletePublicAssistant({ ctx, input: { userId: await ownerOf(assistantId), assistantId } })).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: publicAssistantServerMessages.assistantUnreachable,
    });
    expect(await assistantFootprint(assistantId)).toMatchObject({ assistants: 1, sessions: 1 });

    expect((await call(`/api/public-assistants/${assistantId}`, { method: "DELETE", token })).status).toBe(204);
    expect(await assistantFootprint(assistantId)).toEqual({ assistants: 0, files: 0, chunks: 0, sessions: 0, messages: 0, objects: 0 });
    expect(await hubFootprint(assistantId)).toEqual({ sessions: 0, messages: 0, files: 0, chunks: 0 });
  });
});

/** What the object stores: its SQLite schema objects and its key-value keys. */
const storedIn = (assistantId: string) =>
  runInDurableObject(getAssistantHub(env, assistantId), async (_instance, state) => ({
    schema: Number(state.storage.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE '_cf_%'").one().n),
    keys: [...(await state.storage.list()).keys()],
  }));

describe("an erased assistant's object", () => {
  it("is not created again by later calls: a tombstone answers them as for a deleted assistant", async () => {
    const { assistant, key } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    const { sessionId } = await json(await widgetCall("/api/widget/sessions", { key, json: { referrer: "", locale: "en" } }), widgetSessionResponse);
    const hub = getAssistantHub(env, assistantId);
    // Erased while the D1 row still exists (the owner's DELETE stopped between the two).
    await hub.erase(widgetSocketClose.unavailable);
    expect(await storedIn(assistantId)).toEqual({ schema: 0, keys: ["erased"] });

    const keyHash = await hashApiKey(key);
    expect(await hub.beginTurn({ keyHash, origin: "", sessionId, ip: "203.0.113.5", message: { content: "hi", files: [] } })).toEqual({
      outcome: "denied",
      denied: "unavailable",
    });
    // One answer for a deleted assistant, whatever the call.
    expect(await hub.admitApiCall({ keyHash, origin: "" })).toEqual(gone);
    expect(await hub.history().count()).toEqual(gone);
    expect(await hub.knowledge().file("x")).toEqual(gone);
    expect(await hub.visitors().get({ sessionId })).toEqual(gone);
    expect(await hub.sockets().register(sessionId)).toBe(true);
    const token = await hub.configChanging();
    await hub.configChanged({ token });
    expect(await storedIn(assistantId)).toEqual({ schema: 0, keys: ["erased"] });
    // Erasing again is harmless (a retried DELETE).
    await hub.erase(widgetSocketClose.unavailable);
    expect(await storedIn(assistantId)).toEqual({ schema: 0, keys: ["erased"] });
  });

  it("refuses /v1 with 401 (not 429) once erased, and the ingest queue drops a deleted assistant's messages", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    const { key: secretKey } = await createSecretKey(token, assistantId);
    await getAssistantHub(env, assistantId).erase(widgetSocketClose.unavailable);
    const res = await completions(secretKey, tinyQuestion());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { message: openAiCompatMessages.invalidKey, code: "invalid_api_key" } });

    await env.DB.prepare("DELETE FROM public_assistants WHERE id = ?1").bind(assistantId).run();
    const outcomes: string[] = [];
    const message = {
      id: "m1",
      timestamp: new Date(),
      attempts: 1,
      body: { assistantId, fileId: crypto.randomUUID() },
      ack: () => outcomes.push("ack"),
      retry: () => outcomes.push("retry"),
    };
    const withEmbedder = { ...env, EMBEDDING_MODEL: "mock-embed" } as unknown as Env;
    await handleIngestBatch({ queue: "tala-ingest", messages: [message], ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<unknown>, withEmbedder);
    expect(outcomes).toEqual(["ack"]);
  });
});

/** Breaks one table of the assistant's object, so every call that reads it throws inside the object. */
async function breakTable(assistantId: string, table: string) {
  const hub = getAssistantHub(env, assistantId);
  await hub.history().count(); // the schema exists
  await runInDurableObject(hub, (_instance, state) => {
    state.storage.sql.exec(`ALTER TABLE ${table} RENAME TO ${table}_broken`);
  });
}

const retryable = async (res: Response, message: string) => {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe(String(widget.assistantRetryAfterSeconds));
  expect(await res.json()).toMatchObject({ error: message, code: "SERVICE_UNAVAILABLE" });
};

describe("an assistant's object that fails a call", () => {
  it("answers the widget's routes with a retryable 503 and the contract's message, not a 500", async () => {
    const { assistant, key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await json(await widgetCall("/api/widget/sessions", { key, json: { referrer: "", locale: "en" } }), widgetSessionResponse);
    await breakTable(assistant._id, "visitor_sessions");
    await retryable(await widgetCall("/api/widget/sessions", { key, json: { referrer: "", locale: "en" } }), widgetMessages.assistantUnreachable);
    await retryable(await widgetCall(`/api/widget/sessions/${sessionId}`, { key }), widgetMessages.assistantUnreachable);
    await retryable(
      await widgetCall(`/api/widget/sessions/${sessionId}/messages`, { key, json: { content: "hi", clientMessageId: "c1" } }),
      widgetMessages.assistantUnreachable,
    );
    await retryable(await call(`/parties/widget/${sessionId}?${widget.keyQuery}=${encodeURIComponent(key)}`), widgetMessages.assistantUnreachable);
  });

  it("answers the owner's routes with a retryable 503", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    await breakTable(assistant._id, "visitor_sessions");
    await retryable(await call(`/api/public-assistants/${assistant._id}/chats?page=1&limit=10`, { token }), publicAssistantServerMessages.assistantBusy);
  });

  it("answers /v1 with an OpenAI-shaped 503 and Retry-After", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const { key } = await createSecretKey(token, assistant._id);
    await breakTable(assistant._id, "daily_counts");
    const res = await completions(key, tinyQuestion());
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(widget.assistantRetryAfterSeconds));
    expect(await res.json()).toEqual({ error: { message: openAiCompatMessages.assistantUnreachable, type: "api_error", code: "service_unavailable", param: null } });
  });
});
