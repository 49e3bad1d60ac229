import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateSecretKey, hashApiKey, maskSecretKey } from "../../worker/crypto/api-key";
import { secretKeyDirectory, secretKeyDirectoryMaxAgeMs } from "../../worker/services/secret-keys/secret-key-directory";
import { getAssistantHub } from "../../worker/widget/get-assistant-hub";
import { completions, createSecretKey, tinyQuestion } from "./secret-keys-helpers";
import { widgetAssistant } from "./widget-helpers";

/**
 * Review of c5ed510 (the /v1 directory and the hub's copy of the secret keys): a key change that
 * did not go through configChanging/configChanged. The one way in production is a worker version
 * from before c5ed510 still serving owner requests (a gradual deployment, a rollback): its revoke
 * and its create write D1 alone (no hub call, no updatedAt). The statements below are exactly the
 * ones that version ran. Nothing then ever settles the hub's copy or the isolates' directories.
 */
afterEach(() => {
  vi.useRealTimers();
});

describe("secret keys changed in D1 without the assistant's object being told", () => {
  it("a revoked key an isolate remembers is refused once its entry is older than the directory's maximum age", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const { key, secretKey } = await createSecretKey(token, assistant._id);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
    expect(secretKeyDirectory.get(await hashApiKey(key))).toBeDefined();
    // The revoke of a worker version before c5ed510: D1 only.
    await env.DB.prepare("UPDATE assistant_secret_keys SET revoked_at = ?1 WHERE id = ?2 AND revoked_at IS NULL").bind(Date.now(), secretKey.id).run();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + secretKeyDirectoryMaxAgeMs + 1);
    const res = await completions(key, tinyQuestion());
    expect(res.status).toBe(401);
    expect(secretKeyDirectory.get(await hashApiKey(key))).toBeUndefined();
  });

  it("a key D1 holds in use but the object's copy does not is answered (the copy is read again), not refused for ever", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const first = await createSecretKey(token, assistant._id);
    expect((await completions(first.key, tinyQuestion())).status).toBe(200);
    // The create of a worker version before c5ed510: D1 only.
    const key = generateSecretKey();
    await env.DB.prepare(
      "INSERT INTO assistant_secret_keys (id, assistant_id, name, key_hash, masked, created_at) VALUES (?1, ?2, 'Old worker', ?3, ?4, ?5)",
    )
      .bind(crypto.randomUUID(), assistant._id, await hashApiKey(key), maskSecretKey(key), Date.now())
      .run();
    expect((await completions(key, tinyQuestion())).status).toBe(200);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
  });
});

describe("a worker version before c5ed510 calling the object that now checks keys", () => {
  it("its admitApiCall (no keyHash: it read the key in D1 itself, on every call) is admitted, not refused as a daily limit", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    await createSecretKey(token, assistant._id);
    // The old route's exact call; it answered any { ok: false } without `missing`/`budget` as 429 "daily limit reached".
    const admission = await getAssistantHub(env, assistant._id).admitApiCall({ assistantId: assistant._id, query: "hi", question: "hi" });
    expect(admission).toMatchObject({ ok: true });
  });
});
