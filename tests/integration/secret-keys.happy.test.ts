import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { assistantSecretKey, openAiChatCompletion, openAiChatCompletionChunk } from "../../contract";
import { hashApiKey } from "../../worker/crypto/api-key";
import { sha256Hex } from "../../worker/crypto/hash";
import { secretKeyDirectory } from "../../worker/services/secret-keys/secret-key-directory";
import { call, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { completions, createSecretKey, listSecretKeys, revokeSecretKey, tinyQuestion } from "./secret-keys-helpers";
import { widgetAssistant } from "./widget-helpers";

const keyRow = (id: string) =>
  env.DB.prepare("SELECT * FROM assistant_secret_keys WHERE id = ?1").bind(id).first<Record<string, unknown>>();

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("an assistant's secret keys", () => {
  it("creates a named key shown once, lists it masked, and stores only its hash", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Keys" });
    expect(await listSecretKeys(token, assistant._id)).toEqual([]);

    const created = await createSecretKey(token, assistant._id, "  Support backend  ");
    expect(created.key).toMatch(assistantSecretKey.pattern);
    expect(created.secretKey).toMatchObject({ name: "Support backend", lastUsedAt: null });
    expect(created.secretKey.masked).toBe(`tala_sk_${created.key.slice(8, 12)}…${created.key.slice(-4)}`);

    const listed = await listSecretKeys(token, assistant._id);
    expect(listed).toEqual([created.secretKey]);
    const listText = JSON.stringify(listed);
    expect(listText).not.toContain(created.key);

    // Only the SHA-256 and the mask are stored: the value is nowhere in the row.
    const row = await keyRow(created.secretKey.id);
    expect(row).toMatchObject({ assistant_id: assistant._id, key_hash: await sha256Hex(created.key), revoked_at: null });
    expect(Object.values(row!).some((v) => v === created.key)).toBe(false);
    // The assistant's own answers never carry it either.
    const detail = await call(`/api/public-assistants/${assistant._id}`, { token });
    expect(await detail.text()).not.toContain(created.key);
  });

  it("keeps several keys, newest first, each working on its own until revoked", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const first = await createSecretKey(token, assistant._id, "first");
    const second = await createSecretKey(token, assistant._id, "second");
    expect((await listSecretKeys(token, assistant._id)).map((k) => k.name)).toEqual(["second", "first"]);
    expect((await completions(first.key, tinyQuestion())).status).toBe(200);
    expect((await completions(second.key, tinyQuestion())).status).toBe(200);

    const revoked = await revokeSecretKey(token, assistant._id, first.secretKey.id);
    expect(revoked.status).toBe(204);
    // Refused from the very next request; the other key goes on.
    expect((await completions(first.key, tinyQuestion())).status).toBe(401);
    expect((await completions(second.key, tinyQuestion())).status).toBe(200);
    expect((await listSecretKeys(token, assistant._id)).map((k) => k.name)).toEqual(["second"]);
    expect(await keyRow(first.secretKey.id)).toMatchObject({ revoked_at: expect.any(Number) });
  });

  it("answers /v1 with a secret key, streamed and not, and records when the key was last used", async () => {
    const { token, assistant } = await widgetAssistant();
    const { key, secretKey } = await createSecretKey(token, assistant._id);
    const res = await completions(key, { model: "m", messages: [{ role: "user", content: "[[echo]] zephyrboard refund" }] });
    expect(res.status).toBe(200);
    const body = openAiChatCompletion.parse(await res.json());
    expect(body.choices[0]!.message.content).toContain("within 45 days of delivery");

    const streamed = await completions(key, { stream: true, messages: [{ role: "user", content: "refund [[tokens:3]]" }] });
    expect(streamed.status).toBe(200);
    const lines = (await streamed.text()).split("\n\n").filter((b) => b.trim()).map((b) => b.slice(6));
    expect(lines.at(-1)).toBe("[DONE]");
    expect(openAiChatCompletionChunk.parse(JSON.parse(lines.at(-2)!)).choices[0]!.finish_reason).toBe("stop");

    // last_used_at is written off the response path, once per hour at most.
    const listed = await until(() => listSecretKeys(token, assistant._id), (keys) => keys[0]?.lastUsedAt !== null);
    const usedAt = listed[0]!.lastUsedAt!;
    expect(usedAt).toBeGreaterThanOrEqual(secretKey.createdAt);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await listSecretKeys(token, assistant._id))[0]!.lastUsedAt).toBe(usedAt);
    // An hour later the next call writes it again: D1's time and this isolate's record of it
    // (secret-key-directory.ts, which spares the D1 read) both an hour old.
    const anHourAgo = usedAt - assistantSecretKey.lastUsedIntervalMs - 1;
    await env.DB.prepare("UPDATE assistant_secret_keys SET last_used_at = ?1 WHERE id = ?2").bind(anHourAgo, secretKey.id).run();
    const remembered = secretKeyDirectory.get(await hashApiKey(key));
    if (remembered) remembered.secretKey.lastUsedAt = anHourAgo;
    expect((await completions(key, tinyQuestion())).status).toBe(200);
    const again = await until(() => listSecretKeys(token, assistant._id), (keys) => keys[0]!.lastUsedAt! >= usedAt);
    expect(again[0]!.lastUsedAt).toBeGreaterThanOrEqual(usedAt);
  });

  it("goes with its assistant when the assistant is deleted", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Gone" });
    const { key, secretKey } = await createSecretKey(token, assistant._id);
    expect((await call(`/api/public-assistants/${assistant._id}`, { token, method: "DELETE" })).status).toBe(204);
    expect(await keyRow(secretKey.id)).toBeNull();
    expect((await completions(key, tinyQuestion())).status).toBe(401);
  });
});
