import { describe, expect, it } from "vitest";
import { openAiCompatMessages, openAiErrorBody, widgetMessages } from "../../contract";
import { call, expectError, json, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { completions, createSecretKey, listSecretKeys, revokeSecretKey, secretKeysPath, tinyQuestion } from "./secret-keys-helpers";
import { connectWidgetRaw, sendOverSse, startSession, widgetAssistant, widgetCall } from "./widget-helpers";

const routes = (assistantId: string, keyId: string) => [
  { method: "GET", path: secretKeysPath(assistantId) },
  { method: "POST", path: secretKeysPath(assistantId), json: { name: "intruder" } },
  { method: "DELETE", path: secretKeysPath(assistantId, keyId) },
];

describe("the secret keys API", () => {
  it("needs a signed-in owner, and answers 404 for another owner's assistant or key", async () => {
    const owner = await widgetAssistant({}, { upload: false });
    const { key, secretKey } = await createSecretKey(owner.token, owner.assistant._id);
    for (const route of routes(owner.assistant._id, secretKey.id)) {
      const anonymous = await call(route.path, { method: route.method, json: route.json });
      expect(anonymous.status, `${route.method} ${route.path}`).toBe(401);
    }
    const other = await registerUser();
    for (const route of routes(owner.assistant._id, secretKey.id)) {
      const res = await call(route.path, { token: other.token, method: route.method, json: route.json });
      expect(res.status, `${route.method} ${route.path}`).toBe(404);
    }
    // The other owner's own assistant cannot reach this key either.
    const theirs = await createAssistant(other.token, { name: "Theirs" });
    expect((await revokeSecretKey(other.token, theirs._id, secretKey.id)).status).toBe(404);
    // Nothing changed: the key is listed, works, and the intruder created nothing.
    expect(await listSecretKeys(owner.token, owner.assistant._id)).toEqual([secretKey]);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
  });

  it("keeps one assistant's key out of its owner's other assistants", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const second = await createAssistant(token, { name: "Second" });
    const { key, secretKey } = await createSecretKey(token, assistant._id);
    expect((await revokeSecretKey(token, second._id, secretKey.id)).status).toBe(404);
    expect(await listSecretKeys(token, second._id)).toEqual([]);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
  });
});

describe("which key goes where", () => {
  it("refuses the publishable key on /v1 with a 401 that names the secret key to use", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const res = await completions(key, tinyQuestion());
    expect(res.status).toBe(401);
    expect((await json(res, openAiErrorBody)).error).toEqual({
      message: openAiCompatMessages.publishableKey,
      type: "invalid_request_error",
      code: "invalid_api_key",
      param: null,
    });
    expect(openAiCompatMessages.publishableKey).toContain("tala_sk_");
  });

  it("refuses unknown and revoked secret keys on /v1 with invalid_api_key", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const { key, secretKey } = await createSecretKey(token, assistant._id);
    expect((await revokeSecretKey(token, assistant._id, secretKey.id)).status).toBe(204);
    for (const bad of [key, `tala_sk_${"Z".repeat(43)}`, "tala_sk_short"]) {
      const res = await completions(bad, tinyQuestion());
      expect(res.status).toBe(401);
      expect((await json(res, openAiErrorBody)).error).toEqual({ message: openAiCompatMessages.invalidKey, type: "invalid_request_error", code: "invalid_api_key", param: null });
    }
  });

  it("refuses a secret key on every widget endpoint and on the socket, saying it must not be in a page", async () => {
    const { token, assistant, key: publishable } = await widgetAssistant({}, { upload: false });
    const { key } = await createSecretKey(token, assistant._id);
    const { sessionId } = await startSession(publishable);
    await expectError(await widgetCall("/api/widget/config", { key }), 401, widgetMessages.secretKeyInPage);
    await expectError(await widgetCall("/api/widget/sessions", { key, json: {} }), 401, widgetMessages.secretKeyInPage);
    await expectError(await widgetCall(`/api/widget/sessions/${sessionId}`, { key }), 401, widgetMessages.secretKeyInPage);
    await expectError(await sendOverSse(key, sessionId, { content: "hello" }), 401, widgetMessages.secretKeyInPage);
    await expectError(await connectWidgetRaw(sessionId, key), 401, widgetMessages.secretKeyInPage);
    // The key itself still works where it belongs.
    expect((await completions(key, tinyQuestion())).status).toBe(200);
  });
});
