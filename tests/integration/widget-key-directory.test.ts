import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { widgetMessages, widgetSocketClose } from "../../contract";
import { hashApiKey } from "../../worker/crypto/api-key";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { forgetKey, knownAssistantId, rememberAssistantId } from "../../worker/widget/key-directory";
import { call } from "./helpers";
import { answer, type Answer } from "./key-directory-helpers";
import { sendOverSse, SHOP_ORIGIN, startSession, widgetAssistant, widgetCall } from "./widget-helpers";

/**
 * The SSE turn's key directory (worker/widget/key-directory.ts), the RateLimiter's alarm kept in
 * memory, and /api/dev/model-floor's bounds. Every refusal is sent twice: once with the key in
 * the isolate's directory and once without (the D1 path); both must answer alike.
 */

type Send = () => Promise<Response>;

/** The same request with the key remembered (as a past D1 read left it) and with the directory empty. */
async function bothPaths(key: string, assistantId: string, send: Send): Promise<{ known: Answer; d1: Answer }> {
  const hash = await hashApiKey(key);
  rememberAssistantId(hash, assistantId);
  const known = await answer(await send());
  forgetKey(hash);
  const d1 = await answer(await send());
  forgetKey(hash);
  return { known, d1 };
}

const turn = (key: string, sessionId: string, origin?: string) => () => sendOverSse(key, sessionId, { content: "again [[tokens:1]]" }, { origin });
const badTurn = (key: string, sessionId: string, origin?: string) => () =>
  widgetCall(`/api/widget/sessions/${sessionId}/messages`, { key, origin, json: { content: 42 } });

describe("the SSE key directory answers as D1 does", () => {
  it("the test isolate shares the worker's directory (so the 'known' tests exercise the new path)", async () => {
    const target = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(target.key);
    const res = await sendOverSse(target.key, sessionId, { content: "hi [[tokens:1]]" });
    expect(res.status).toBe(200);
    await res.text();
    expect(knownAssistantId(await hashApiKey(target.key))).toBe(target.assistant._id);
  });

  it("a regenerated key, good or bad body, with or without the directory", async () => {
    const target = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(target.key);
    expect((await call(`/api/public-assistants/${target.assistant._id}/regenerate-key`, { method: "POST", token: target.token })).status).toBe(200);
    for (const send of [turn(target.key, sessionId, SHOP_ORIGIN), badTurn(target.key, sessionId, SHOP_ORIGIN)]) {
      const { known, d1 } = await bothPaths(target.key, target.assistant._id, send);
      expect(known).toEqual(d1);
      expect(known.status).toBe(401);
      expect(known.allowOrigin).toBe(SHOP_ORIGIN);
    }
  });

  it("switched off, deleted, Origin removed, no Origin: good and bad bodies alike", async () => {
    const off = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN] }, { upload: false });
    const offSession = (await startSession(off.key, { origin: SHOP_ORIGIN })).sessionId;
    const moved = await widgetAssistant({ allowedOrigins: [SHOP_ORIGIN] }, { upload: false });
    const movedSession = (await startSession(moved.key, { origin: SHOP_ORIGIN })).sessionId;
    const gone = await widgetAssistant({}, { upload: false });
    const goneSession = (await startSession(gone.key)).sessionId;
    expect((await call(`/api/public-assistants/${off.assistant._id}`, { method: "PUT", token: off.token, json: { isActive: false } })).status).toBe(200);
    expect((await call(`/api/public-assistants/${moved.assistant._id}`, { method: "PUT", token: moved.token, json: { allowedOrigins: ["https://other.example"] } })).status).toBe(200);
    expect((await call(`/api/public-assistants/${gone.assistant._id}`, { method: "DELETE", token: gone.token })).status).toBe(204);
    const cases: [string, string, string, string | undefined, number][] = [
      [off.key, off.assistant._id, offSession, SHOP_ORIGIN, 403],
      [moved.key, moved.assistant._id, movedSession, SHOP_ORIGIN, 403],
      [moved.key, moved.assistant._id, movedSession, undefined, 403],
      [gone.key, gone.assistant._id, goneSession, SHOP_ORIGIN, 401],
    ];
    for (const [key, id, session, origin, status] of cases) {
      for (const send of [turn(key, session, origin), badTurn(key, session, origin)]) {
        const { known, d1 } = await bothPaths(key, id, send);
        expect(known, `${id} ${origin}`).toEqual(d1);
        expect(known.status).toBe(status);
      }
    }
  });

  it("a session of another assistant: 404 on both paths, good or bad body", async () => {
    const a = await widgetAssistant({}, { upload: false });
    const b = await widgetAssistant({}, { upload: false });
    const bSession = (await startSession(b.key)).sessionId;
    for (const send of [turn(a.key, bSession), badTurn(a.key, bSession)]) {
      const { known, d1 } = await bothPaths(a.key, a.assistant._id, send);
      expect(known).toEqual(d1);
      expect(known.status).toBe(404);
    }
  });

  it("secret, malformed and missing keys never reach the directory and answer as before", async () => {
    const target = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(target.key);
    for (const key of ["sk_" + "a".repeat(40), "not-a-key", "", target.key.slice(0, -1) + (target.key.endsWith("a") ? "b" : "a")]) {
      const res = await sendOverSse(key, sessionId, { content: "x" });
      expect(res.status).toBe(401);
      if (key) expect(knownAssistantId(await hashApiKey(key.trim()))).toBeUndefined();
    }
  });

  it("an erased hub (D1 row still there) and an unsettled copy answer as D1 does", async () => {
    const erased = await widgetAssistant({}, { upload: false });
    const erasedSession = (await startSession(erased.key)).sessionId;
    await getAssistantHub(env, erased.assistant._id).erase(widgetSocketClose.unavailable);
    // Good body: 401 (the hub has no assistant); bad body: 404 (D1 still has the key, the hub no session).
    for (const [send, status] of [[turn(erased.key, erasedSession), 401], [badTurn(erased.key, erasedSession), 404]] as const) {
      const { known, d1 } = await bothPaths(erased.key, erased.assistant._id, send);
      expect(known).toEqual(d1);
      expect(known.status).toBe(status);
    }
    // A pending marker, then D1 changed (the owner's write, before its configChanged).
    const pending = await widgetAssistant({}, { upload: false });
    const pendingSession = (await startSession(pending.key)).sessionId;
    await getAssistantHub(env, pending.assistant._id).configChanging();
    await env.DB.prepare("UPDATE public_assistants SET is_active = 0 WHERE id = ?").bind(pending.assistant._id).run();
    const { known, d1 } = await bothPaths(pending.key, pending.assistant._id, turn(pending.key, pendingSession));
    expect(known).toEqual(d1);
    expect(known.status).toBe(403);
    expect(known.body).toMatchObject({ error: widgetMessages.unavailable });
  });

  it("the directory stays bounded (2,000 entries, oldest out)", () => {
    const first = `dir-${crypto.randomUUID()}`;
    rememberAssistantId(first, "x");
    for (let i = 0; i < 2000; i++) rememberAssistantId(`dir-fill-${i}-${crypto.randomUUID()}`, "y");
    expect(knownAssistantId(first)).toBeUndefined();
  });
});
