import { isGone } from "../../worker/assistant/gone";
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateSecretKey, hashApiKey, maskSecretKey } from "../../worker/crypto/api-key";
import { secretKeyDirectory, secretKeyDirectoryMaxAgeMs } from "../../worker/services/secret-keys/secret-key-directory";
import { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import type { Env } from "../../worker/env";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { hubRows } from "./public-assistants-helpers";
import { completions, createSecretKey, revokeSecretKey, tinyQuestion } from "./secret-keys-helpers";
import { widgetAssistant } from "./widget-helpers";

/**
 * The object's D1 with one member replaced (`intercept` answers it, or undefined for the real
 * one, bound to the database). Made inside the object's own callback: it does no I/O itself.
 */
function interceptDb(db: D1Database, intercept: (target: D1Database, prop: string | symbol) => unknown): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      const replaced = intercept(target, prop);
      if (replaced !== undefined) return replaced;
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Secret keys that changed where the /v1 directory and the assistant's object were not told:
 * - a key change that did not go through configChanging/configChanged. The one way in production
 *   is a worker version from before the object held the keys still serving owner requests (a gradual deployment, a
 *   rollback): its revoke and its create write D1 alone (no hub call, no updatedAt). The
 *   statements below are exactly the ones that version ran;
 * - the two versions calling each other's admitApiCall during a deployment;
 * - a hub D1 read, or a legacy move, that a revoke overtook while a call waited on it.
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
    // The revoke of a worker version from before the object held the keys: D1 only.
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
    // The create of a worker version from before the object held the keys: D1 only.
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

describe("a worker version from before the object held the keys, calling the object that now checks them", () => {
  it("its admitApiCall (no keyHash: it read the key in D1 itself, on every call) is admitted, not refused as a daily limit", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    await createSecretKey(token, assistant._id);
    // The old route's exact call; it answered any { ok: false } without `missing`/`budget` as 429 "daily limit reached".
    const admission = await getAssistantHub(env, assistant._id).admitApiCall({ query: "hi", question: "hi" });
    expect(admission).toMatchObject({ ok: true });
  });
});

describe("the object's D1 read that a revoke overtook", () => {
  it("a call whose copy read began before a revoke and ended after it returned is refused, while another owner write is pending", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const { key, secretKey } = await createSecretKey(token, assistant._id);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
    const hub = getAssistantHub(env, assistant._id);
    // Another owner write is under way (its configChanged not yet called): every call reads D1.
    await hub.configChanging();
    // The object's next D1 read runs at once (before the revoke commits) and answers when released.
    let started!: () => void;
    const readStarted = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let original: Env | undefined;
    await runInDurableObject(getAssistantHub(env, assistant._id), (instance) => {
      const gate = (instance as unknown as { core: { gate: { env: Env } } }).core.gate;
      original = gate.env;
      let held = false;
      gate.env = {
        ...original,
        DB: interceptDb(original.DB, (target, prop) => {
          if (prop !== "batch" || held) return undefined;
          held = true;
          return async (statements: D1PreparedStatement[]) => {
            const result = await target.batch(statements);
            started();
            await released;
            return result;
          };
        }),
      };
    });
    try {
      const inFlight = completions(key, tinyQuestion());
      await readStarted;
      expect((await revokeSecretKey(token, assistant._id, secretKey.id)).status).toBe(204);
      // The revoke returned: the object's stored copy no longer holds the key.
      const stored = await hubRows(assistant._id, "SELECT secret_keys FROM assistant_copy");
      expect(JSON.parse(String(stored[0]!.secret_keys))).toEqual([]);
      release();
      const res = await inFlight;
      expect(res.status).toBe(401);
    } finally {
      release();
      await runInDurableObject(getAssistantHub(env, assistant._id), (instance) => {
        (instance as unknown as { core: { gate: { env: Env } } }).core.gate.env = original!;
      });
    }
  });
});

describe("this worker calling an object still on a version from before it held the keys", () => {
  it("a revoked key this isolate remembers is refused, and a good key answered, when the object checks no key and sends no assistant", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const good = await createSecretKey(token, assistant._id);
    const gone = await createSecretKey(token, assistant._id, "Gone");
    expect((await completions(good.key, tinyQuestion())).status).toBe(200);
    expect((await completions(gone.key, tinyQuestion())).status).toBe(200);
    expect((await revokeSecretKey(token, assistant._id, gone.secretKey.id)).status).toBe(204);
    // The old object's admitApiCall: no key check, and only { ok: true, passages }.
    const current = AssistantHub.prototype.admitApiCall;
    const old = async function (this: AssistantHub, input: Parameters<typeof current>[0]) {
      const admission = await current.call(this, { query: input.query, question: input.question });
      return !isGone(admission) && admission.ok ? { ok: true as const, passages: admission.passages } : admission;
    };
    AssistantHub.prototype.admitApiCall = old as unknown as typeof current;
    try {
      expect((await completions(gone.key, tinyQuestion())).status).toBe(401);
      const res = await completions(good.key, tinyQuestion());
      expect(res.status, await res.clone().text()).toBe(200);
    } finally {
      AssistantHub.prototype.admitApiCall = current;
    }
  });
});

describe("the first call of an object that still has its legacy rows to move", () => {
  it("a call whose move outlasted a revoke is judged against the copy after the move, not the one before it", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const { key, secretKey } = await createSecretKey(token, assistant._id);
    expect((await completions(key, tinyQuestion())).status).toBe(200);
    let started!: () => void;
    const moveStarted = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let original: Env | undefined;
    // As an object whose legacy move has not run yet (its first call since the version that added it); the move's first D1 page answers when released.
    await runInDurableObject(getAssistantHub(env, assistant._id), (instance, state) => {
      state.storage.sql.exec("DELETE FROM meta WHERE key = 'imported'");
      const gate = (instance as unknown as { core: { gate: { env: Env } } }).core.gate;
      original = gate.env;
      let held = false;
      gate.env = {
        ...original,
        DB: interceptDb(original.DB, (target, prop) => {
          if (prop !== "prepare") return undefined;
          return (query: string) => {
            const statement = target.prepare(query);
            if (held || !query.includes("FROM visitor_sessions WHERE assistant_id")) return statement;
            held = true;
            return {
              bind: (...values: unknown[]) => ({
                all: async () => {
                  const result = await statement.bind(...values).all();
                  started();
                  await released;
                  return result;
                },
              }),
            };
          };
        }),
      };
    });
    try {
      const inFlight = completions(key, tinyQuestion());
      await moveStarted;
      expect((await revokeSecretKey(token, assistant._id, secretKey.id)).status).toBe(204);
      release();
      expect((await inFlight).status).toBe(401);
    } finally {
      release();
      await runInDurableObject(getAssistantHub(env, assistant._id), (instance) => {
        (instance as unknown as { core: { gate: { env: Env } } }).core.gate.env = original!;
      });
    }
  });
});
