import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { apiKeyResponse, knowledgeUploadResponse, publicAssistantListResponse, publicAssistantResponse, serverMessages } from "../../contract";
import { sha256Hex } from "../../worker/crypto/hash";
import { findAssistantByKey } from "../../worker/services/public-assistants/find-assistant-by-key";
import { call, errorOf, expectError, json, registerUser } from "./helpers";
import {
  assistantFootprint,
  createAssistant,
  everyRoute,
  routeInit,
  hubFirst,
  seedVisitorSession,
  testServiceContext,
  uploadFiles,
} from "./public-assistants-helpers";

/** An owner with an assistant, a knowledge file and a visitor session: everything a route can touch. */
async function ownerWithEverything() {
  const owner = await registerUser();
  const assistant = await createAssistant(owner.token, { name: "Private bot" });
  const uploaded = await json(
    await uploadFiles(owner.token, assistant._id, [{ name: "secret.txt", bytes: "The warranty code word is Bellerophon.", type: "text/plain" }]),
    knowledgeUploadResponse,
  );
  const sessionId = await seedVisitorSession(assistant._id, { messages: [{ role: "user", text: "private question" }] });
  const { apiKey } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token: owner.token }), apiKeyResponse);
  return { owner, assistantId: assistant._id, fileId: uploaded.files[0]!._id, sessionId, apiKey };
}

describe("anonymous callers", () => {
  it("get 401 on every route, the list and create included", async () => {
    const { assistantId, fileId, sessionId } = await ownerWithEverything();
    const routes = [{ method: "GET", path: "/api/public-assistants" }, { method: "POST", path: "/api/public-assistants", body: "json" as const }, ...everyRoute(assistantId, fileId, sessionId)];
    for (const route of routes) {
      const res = await call(route.path, routeInit(route));
      expect(res.status, `${route.method} ${route.path}`).toBe(401);
      expect((await errorOf(res)).error).toBe(serverMessages.authRequired);
    }
    const bad = await call("/api/public-assistants", { token: "tala_not-a-real-token" });
    expect(bad.status).toBe(401);
  });
});

describe("another owner", () => {
  it("gets 404 on every route of someone else's assistant, and changes nothing", async () => {
    const { owner, assistantId, fileId, sessionId, apiKey } = await ownerWithEverything();
    const before = await assistantFootprint(assistantId);
    const ownerView = await json(await call(`/api/public-assistants/${assistantId}`, { token: owner.token }), publicAssistantResponse);
    const intruder = await registerUser();
    await createAssistant(intruder.token, { name: "Intruder's own" });

    for (const route of everyRoute(assistantId, fileId, sessionId)) {
      const res = await call(route.path, routeInit(route, { token: intruder.token }));
      expect(res.status, `${route.method} ${route.path}`).toBe(404);
      const body = await res.text();
      expect(body).not.toContain("Private bot");
      expect(body).not.toContain("private question");
      expect(body).not.toContain("Bellerophon");
      expect(body).not.toContain(apiKey);
    }

    // Still there, unchanged, with the same key, and absent from the intruder's list.
    expect(await assistantFootprint(assistantId)).toEqual(before);
    const after = await json(await call(`/api/public-assistants/${assistantId}`, { token: owner.token }), publicAssistantResponse);
    expect(after.assistant).toEqual(ownerView.assistant);
    expect((await findAssistantByKey(testServiceContext(), apiKey))?.id).toBe(assistantId);
    const intruderList = await json(await call("/api/public-assistants", { token: intruder.token }), publicAssistantListResponse);
    expect(intruderList.assistants.map((a) => a.name)).toEqual(["Intruder's own"]);
  });

  it("cannot read a conversation through their own assistant's id", async () => {
    const { sessionId } = await ownerWithEverything();
    const intruder = await registerUser();
    const own = await createAssistant(intruder.token);
    const res = await call(`/api/public-assistants/${own._id}/chats/${sessionId}`, { token: intruder.token });
    await expectError(res, 404, serverMessages.notFound);
  });

  it("cannot reach a file through their own assistant's id", async () => {
    const { fileId } = await ownerWithEverything();
    const intruder = await registerUser();
    const own = await createAssistant(intruder.token);
    await expectError(await call(`/api/public-assistants/${own._id}/files/${fileId}/download`, { token: intruder.token }), 404, serverMessages.notFound);
    await expectError(await call(`/api/public-assistants/${own._id}/files/${fileId}`, { token: intruder.token, method: "DELETE" }), 404, serverMessages.notFound);
    // Still there, in its own assistant's object.
    expect((await hubFirst("SELECT id FROM knowledge_files WHERE id = ?", fileId)) !== null).toBe(true);
  });

  it("does not find the other owner's passages through their own assistant's search", async () => {
    await ownerWithEverything();
    const intruder = await registerUser();
    const own = await createAssistant(intruder.token);
    const res = await call(`/api/public-assistants/${own._id}/search?q=Bellerophon`, { token: intruder.token });
    expect(((await res.json()) as { results: unknown[] }).results).toEqual([]);
  });
});

describe("API key storage", () => {
  it("keeps only the ciphertext, the SHA-256 and the mask in D1: never the key", async () => {
    const { assistantId, apiKey } = await ownerWithEverything();
    const row = await env.DB.prepare("SELECT * FROM public_assistants WHERE id = ?1").bind(assistantId).first<Record<string, unknown>>();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(apiKey);
    expect(stored).not.toContain(apiKey.slice(8));
    expect(row?.api_key_hash).toBe(await sha256Hex(apiKey));
    expect(row?.api_key_encrypted).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(row?.api_key_masked).toBe(`tala_pk_${apiKey.slice(8, 12)}…${apiKey.slice(-4)}`);
  });

  it("a ciphertext copied onto another assistant does not decrypt there", async () => {
    const { owner, assistantId } = await ownerWithEverything();
    const other = await createAssistant(owner.token);
    await env.DB.prepare("UPDATE public_assistants SET api_key_encrypted = (SELECT api_key_encrypted FROM public_assistants WHERE id = ?1) WHERE id = ?2")
      .bind(assistantId, other._id)
      .run();
    const res = await call(`/api/public-assistants/${other._id}/raw-api-key`, { token: owner.token });
    expect(res.status).toBe(503);
  });

  it("findAssistantByKey refuses malformed and unknown keys", async () => {
    const { apiKey } = await ownerWithEverything();
    const ctx = testServiceContext();
    for (const key of ["", "tala_pk_", apiKey.slice(0, -1), `${apiKey}x`, apiKey.toUpperCase(), `tala_pk_${"A".repeat(43)}`, "' OR 1=1 --"]) {
      expect(await findAssistantByKey(ctx, key)).toBeNull();
    }
    expect(await findAssistantByKey(ctx, ` ${apiKey} `)).not.toBeNull();
  });

  it("serves key material with no-store caching", async () => {
    const { owner, assistantId } = await ownerWithEverything();
    for (const path of ["raw-api-key", "integration-code"]) {
      const res = await call(`/api/public-assistants/${assistantId}/${path}`, { token: owner.token });
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });
});
