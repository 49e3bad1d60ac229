import { describe, expect, it } from "vitest";
import { openAiCompat, openAiCompatMessages as M, openAiErrorBody, openAiModelsPath } from "../../contract";
import { hashApiKey } from "../../worker/crypto/api-key";
import { secretKeyDirectory } from "../../worker/services/secret-keys/secret-key-directory";
import { call, json } from "./helpers";
import { apiAssistant, models, openAiClient } from "./openai-models-helpers";
import { completions, listSecretKeys, revokeSecretKey, tinyQuestion } from "./secret-keys-helpers";
import { SHOP_ORIGIN } from "./widget-helpers";

/** Status, OpenAI error body and reflected Origin of a refusal. */
async function refusal(res: Response) {
  return { status: res.status, error: (await json(res, openAiErrorBody)).error, allowOrigin: res.headers.get("access-control-allow-origin") };
}

describe("GET /api/v1/models: the key is checked as chat completions check it", () => {
  it("answers a missing, malformed, unknown or publishable key as chat completions do (401, OpenAI's body)", async () => {
    const { publishable } = await apiAssistant({}, { upload: false });
    for (const key of [null, "sk-not-ours", `tala_sk_${"C".repeat(43)}`, publishable]) {
      const listed = await refusal(await models(key));
      expect(listed.status).toBe(401);
      expect(listed).toEqual(await refusal(await completions(key, tinyQuestion())));
    }
    expect((await refusal(await models(publishable))).error).toEqual({ message: M.publishableKey, type: "invalid_request_error", code: "invalid_api_key", param: null });
  });

  it("refuses a revoked key from the next request, also when this isolate remembers it", async () => {
    const { key, token, assistant } = await apiAssistant({}, { upload: false });
    expect((await models(key)).status).toBe(200);
    expect(secretKeyDirectory.get(await hashApiKey(key))).toBeDefined();
    const [secretKey] = await listSecretKeys(token, assistant._id);
    expect((await revokeSecretKey(token, assistant._id, secretKey!.id)).status).toBe(204);
    const res = await refusal(await models(key));
    expect(res).toMatchObject({ status: 401, error: { code: "invalid_api_key", message: M.invalidKey } });
  });

  it("refuses an inactive assistant (403), remembered key or not", async () => {
    const { key, token, assistant } = await apiAssistant({}, { upload: false });
    expect((await models(key)).status).toBe(200);
    await call(`/api/public-assistants/${assistant._id}`, { token, method: "PUT", json: { isActive: false } });
    const known = await refusal(await models(key));
    expect(known).toMatchObject({ status: 403, error: { type: "permission_error", code: "assistant_unavailable" } });
    secretKeyDirectory.forget(await hashApiKey(key));
    expect(await refusal(await models(key))).toEqual(known);
  });

  it("checks a browser's Origin against the allowlist, and does not reflect a refused one", async () => {
    const { key } = await apiAssistant({ allowedOrigins: [SHOP_ORIGIN] }, { upload: false });
    const pre = await call(openAiModelsPath, { method: "OPTIONS", headers: { origin: SHOP_ORIGIN, "access-control-request-headers": "authorization" } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toContain("GET");
    const evil = await refusal(await models(key, undefined, { origin: "https://evil.example" }));
    expect(evil).toMatchObject({ status: 403, allowOrigin: null, error: { code: "origin_not_allowed" } });
    const ok = await models(key, undefined, { origin: SHOP_ORIGIN });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    expect((await models(key)).status).toBe(200);
  });

  it("answers OpenAI's 404 for a model that is not the key's, and checks the key first", async () => {
    const { key } = await apiAssistant({}, { upload: false });
    for (const id of ["gpt-4o", "org/some-model"]) {
      const res = await refusal(await models(key, id));
      expect(res).toEqual({ status: 404, allowOrigin: null, error: { message: M.modelNotFound(id), type: "invalid_request_error", code: "model_not_found", param: "model" } });
    }
    expect((await models(null, openAiCompat.defaultModel)).status).toBe(401);
    await expect(openAiClient(key).models.retrieve("gpt-4o")).rejects.toMatchObject({ status: 404, code: "model_not_found" });
  });

  it("counts nothing against the assistant's daily limit", async () => {
    const dailyLimit = 10;
    const { key } = await apiAssistant({ config: { dailyLimit } }, { upload: false });
    for (let i = 0; i <= dailyLimit; i++) expect((await models(key)).status).toBe(200);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
  });
});
