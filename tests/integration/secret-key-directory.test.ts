import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { openAiCompatMessages as M } from "../../contract";
import { hashApiKey } from "../../worker/crypto/api-key";
import { secretKeyDirectory } from "../../worker/services/secret-keys/secret-key-directory";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call } from "./helpers";
import { answer, type Answer } from "./key-directory-helpers";
import { hubRows } from "./public-assistants-helpers";
import { completions, createSecretKey, revokeSecretKey, tinyQuestion } from "./secret-keys-helpers";
import { SHOP_ORIGIN, widgetAssistant } from "./widget-helpers";

/**
 * /v1's secret-key directory (worker/services/secret-keys/secret-key-directory.ts): a key this
 * isolate read from D1 once is not read again; the assistant's own object checks it against the
 * secret keys in its copy on every call. Every refusal is sent twice: with the key in the
 * directory and without it (the D1 path); both must answer alike.
 */

/** The same request with the key remembered (as a past D1 read left it) and with the directory empty. */
async function bothPaths(key: string, assistantId: string, send: () => Promise<Response>): Promise<{ known: Answer; d1: Answer; forgotten: boolean }> {
  const hash = await hashApiKey(key);
  secretKeyDirectory.remember(hash, { assistantId, secretKey: { id: "remembered", lastUsedAt: Date.now() } });
  const known = await answer(await send());
  const forgotten = secretKeyDirectory.get(hash) === undefined;
  secretKeyDirectory.forget(hash);
  const d1 = await answer(await send());
  secretKeyDirectory.forget(hash);
  return { known, d1, forgotten };
}

const ask = (key: string, origin?: string) => () => completions(key, tinyQuestion(), origin ? { origin } : {});
const badBody = (key: string, origin?: string) => () => completions(key, { messages: "nope" }, origin ? { origin } : {});

describe("the /v1 secret-key directory answers as D1 does", () => {
  it("remembers a key after its first call (the test isolate shares the worker's directory), and a known key still answers", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const { key } = await createSecretKey(token, assistant._id);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
    expect(secretKeyDirectory.get(await hashApiKey(key))?.assistantId).toBe(assistant._id);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
  });

  it("a revoked key is refused at the next call even when the isolate knows it, good or bad body, and is forgotten", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const { key, secretKey } = await createSecretKey(token, assistant._id);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
    expect((await revokeSecretKey(token, assistant._id, secretKey.id)).status).toBe(204);
    // Still in the directory: the assistant's object refuses it from its copy.
    expect(secretKeyDirectory.get(await hashApiKey(key))).toBeDefined();
    const refused = await completions(key, tinyQuestion());
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { message: M.invalidKey, code: "invalid_api_key" } });
    expect(secretKeyDirectory.get(await hashApiKey(key))).toBeUndefined();
    for (const send of [ask(key), badBody(key)]) {
      const { known, d1, forgotten } = await bothPaths(key, assistant._id, send);
      expect(known).toEqual(d1);
      expect(known.status).toBe(401);
      expect(forgotten).toBe(true);
    }
  });

  it("switched off, deleted, Origin refused: good and bad bodies alike, no CORS for a refused Origin", async () => {
    const off = await widgetAssistant({}, { upload: false });
    const offKey = (await createSecretKey(off.token, off.assistant._id)).key;
    const fenced = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN] }, { upload: false });
    const fencedKey = (await createSecretKey(fenced.token, fenced.assistant._id)).key;
    const gone = await widgetAssistant({}, { upload: false });
    const goneKey = (await createSecretKey(gone.token, gone.assistant._id)).key;
    expect((await call(`/api/public-assistants/${off.assistant._id}`, { method: "PUT", token: off.token, json: { isActive: false } })).status).toBe(200);
    expect((await call(`/api/public-assistants/${gone.assistant._id}`, { method: "DELETE", token: gone.token })).status).toBe(204);
    const cases: [string, string, string | undefined, number][] = [
      [offKey, off.assistant._id, undefined, 403],
      [fencedKey, fenced.assistant._id, "https://evil.example", 403],
      [goneKey, gone.assistant._id, undefined, 401],
    ];
    for (const [key, id, origin, status] of cases) {
      for (const send of [ask(key, origin), badBody(key, origin)]) {
        const { known, d1 } = await bothPaths(key, id, send);
        expect(known, `${id} ${origin}`).toEqual(d1);
        expect(known.status).toBe(status);
        expect(known.allowOrigin).toBeNull();
      }
    }
    // The allowed Origin is answered and reflected on both paths.
    const { known, d1 } = await bothPaths(fencedKey, fenced.assistant._id, ask(fencedKey, SHOP_ORIGIN));
    expect([known.status, known.allowOrigin, d1.status, d1.allowOrigin]).toEqual([200, SHOP_ORIGIN, 200, SHOP_ORIGIN]);
  });

  it("a key remembered under another assistant (never true in use) is refused by that assistant's object", async () => {
    const a = await widgetAssistant({}, { upload: false });
    const b = await widgetAssistant({}, { upload: false });
    const keyOfA = (await createSecretKey(a.token, a.assistant._id)).key;
    await createSecretKey(b.token, b.assistant._id);
    const hash = await hashApiKey(keyOfA);
    secretKeyDirectory.remember(hash, { assistantId: b.assistant._id, secretKey: { id: "wrong", lastUsedAt: Date.now() } });
    // B's object does not hold A's key: 401, and D1, asked again, puts A in the directory for the next call.
    const res = await completions(keyOfA, tinyQuestion());
    expect(res.status).toBe(401);
    expect(secretKeyDirectory.get(hash)?.assistantId).toBe(a.assistant._id);
    expect((await completions(keyOfA, tinyQuestion())).status).toBe(200);
  });

  it("a new key answers at once, its creation and revocation move the assistant's updatedAt, and the copy holds the keys in use", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const before = await hubUpdatedAt(assistant._id);
    const first = await createSecretKey(token, assistant._id);
    expect((await completions(first.key, tinyQuestion())).status).toBe(200);
    const second = await createSecretKey(token, assistant._id);
    expect((await completions(second.key, tinyQuestion())).status).toBe(200);
    expect((await revokeSecretKey(token, assistant._id, first.secretKey.id)).status).toBe(204);
    const stored = await hubRows(assistant._id, "SELECT secret_keys, updated_at FROM assistant_copy");
    expect(JSON.parse(String(stored[0]!.secret_keys))).toEqual([{ id: second.secretKey.id, hash: await hashApiKey(second.key) }]);
    expect(Number(stored[0]!.updated_at)).toBeGreaterThan(before);
    expect((await completions(first.key, tinyQuestion())).status).toBe(401);
    expect((await completions(second.key, tinyQuestion())).status).toBe(200);
  });

  it("a copy stored before the copy held secret keys is read again from D1 at its next use", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const { key } = await createSecretKey(token, assistant._id);
    // As an object last written by the version before: the column is empty. (This instance is not
    // fresh; it holds no trusted copy in memory only because the create's refresh dropped it.)
    await runInDurableObject(getAssistantHub(env, assistant._id), (_i, state) => {
      state.storage.sql.exec("UPDATE assistant_copy SET secret_keys = NULL");
    });
    expect((await completions(key, tinyQuestion())).status).toBe(200);
    const stored = await hubRows(assistant._id, "SELECT secret_keys FROM assistant_copy");
    expect(JSON.parse(String(stored[0]!.secret_keys))).toHaveLength(1);
  });
});

async function hubUpdatedAt(assistantId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT updated_at AS t FROM public_assistants WHERE id = ?1").bind(assistantId).first<{ t: number }>();
  return row!.t;
}
