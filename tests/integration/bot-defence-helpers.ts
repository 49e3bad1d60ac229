import { env, runInDurableObject } from "cloudflare:test";
import { createHash } from "node:crypto";
import { expect } from "vitest";
import { botDefenceMessages, errorBodySchema, widgetApiPaths, widgetSessionResponse, type ProofOfWork } from "../../contract";
import { BotDefenceStore } from "../../worker/assistant/bot-defence-store";
import type { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import { leadingZeroBits } from "../../worker/widget/proof-of-work";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { json, tableCounts } from "./helpers";
import { widgetCall } from "./widget-helpers";

/** Helpers of tests/integration/bot-defence.*.test.ts (proof-of-work before a widget session). */

export const BROWSER_UA = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

/**
 * Solves a challenge as the widget does (the first decimal nonce whose SHA-256(`${challenge}:${nonce}`)
 * has `difficulty` leading zero bits), with node's SHA-256: independent of the server's code.
 */
export function solve(challenge: string, difficulty: number): string {
  for (let i = 0; ; i++) {
    const nonce = i.toString(36);
    if (leadingZeroBits(createHash("sha256").update(`${challenge}:${nonce}`, "utf8").digest()) >= difficulty) return nonce;
  }
}

/** A nonce that does not reach `difficulty` bits. */
export function unsolved(challenge: string, difficulty: number): string {
  for (let i = 0; ; i++) {
    const nonce = i.toString(36);
    if (leadingZeroBits(createHash("sha256").update(`${challenge}:${nonce}`, "utf8").digest()) < difficulty) return nonce;
  }
}

export interface SessionCall {
  ip: string;
  userAgent?: string;
  proof?: ProofOfWork;
  visitorSessionId?: string;
  origin?: string;
}

/** POST /api/widget/sessions as a browser at `ip` would (the widget's body), optionally with a proof. */
export const postSession = (key: string, init: SessionCall) =>
  widgetCall(widgetApiPaths.sessions, {
    key,
    ip: init.ip,
    origin: init.origin,
    headers: { "user-agent": init.userAgent ?? BROWSER_UA },
    json: { visitorSessionId: init.visitorSessionId, referrer: "https://shop.example/", locale: "en-US", ...(init.proof ? { proof: init.proof } : {}) },
  });

/** A 428 CHALLENGE_REQUIRED answer's challenge (asserting the whole envelope). */
export async function challengeOf(res: Response) {
  expect(res.status, await res.clone().text()).toBe(428);
  const body = await json(res, errorBodySchema);
  expect(body).toMatchObject({ error: botDefenceMessages.challengeRequired, code: "CHALLENGE_REQUIRED" });
  expect(body.requestId).toEqual(expect.any(String));
  expect(body.challenge).toEqual({ challenge: expect.stringMatching(/^[\w-]+\.[\w-]+$/), difficulty: expect.any(Number) });
  return body.challenge!;
}

/** A 403 refused proof's fresh challenge (asserting the whole envelope). */
export async function refusedWith(res: Response) {
  expect(res.status, await res.clone().text()).toBe(403);
  const body = await json(res, errorBodySchema);
  expect(body).toMatchObject({ error: botDefenceMessages.proofRefused, code: "FORBIDDEN" });
  expect(body.challenge).toEqual({ challenge: expect.stringMatching(/^[\w-]+\.[\w-]+$/), difficulty: expect.any(Number) });
  return body.challenge!;
}

/** A 201 new session's id. */
export async function created(res: Response) {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res, widgetSessionResponse)).sessionId;
}

/** Asks for a session, gets the 428, solves it, and starts the session with the proof (what the widget does). */
export async function startWithProof(key: string, init: SessionCall) {
  const challenge = await challengeOf(await postSession(key, init));
  const proof = { challenge: challenge.challenge, nonce: solve(challenge.challenge, challenge.difficulty) };
  return { sessionId: await created(await postSession(key, { ...init, proof })), proof, challenge };
}

/** Runs `work` on the bot-defence store of an assistant's object (and its storage), opened as any call would. */
export async function withDefenceStore<T>(assistantId: string, work: (store: BotDefenceStore, storage: DurableObjectStorage) => T): Promise<T> {
  return runInDurableObject(getAssistantHub(env, assistantId), async (instance, state) => {
    await (instance as unknown as AssistantHub).history().count();
    return work(new BotDefenceStore(state.storage), state.storage);
  });
}

/** What the bot-defence tables of an assistant's object hold. */
export const defenceCounts = (assistantId: string) =>
  withDefenceStore(assistantId, (_store, storage) => tableCounts(storage, { counts: "defence_counts", spent: "spent_challenges", days: "defence_days" }));
