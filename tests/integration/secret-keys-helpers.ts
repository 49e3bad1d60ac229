import { expect } from "vitest";
import { createdSecretKeyResponse, secretKeyListResponse } from "../../contract";
import { call, json } from "./helpers";

export const OPENAI_PATH = "/api/v1/chat/completions";

export const secretKeysPath = (assistantId: string, keyId?: string) =>
  `/api/public-assistants/${assistantId}/secret-keys${keyId === undefined ? "" : `/${keyId}`}`;

/** POST …/secret-keys, expecting 201; returns the listed key and its value (shown this once). */
export async function createSecretKey(token: string, assistantId: string, name = "Backend") {
  const res = await call(secretKeysPath(assistantId), { token, json: { name } });
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res, createdSecretKeyResponse);
}

/** GET …/secret-keys, expecting 200. */
export async function listSecretKeys(token: string, assistantId: string) {
  const res = await call(secretKeysPath(assistantId), { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json(res, secretKeyListResponse)).secretKeys;
}

/** DELETE …/secret-keys/:keyId. */
export const revokeSecretKey = (token: string, assistantId: string, keyId: string) => call(secretKeysPath(assistantId, keyId), { token, method: "DELETE" });

/** POST /api/v1/chat/completions with `key` as the Bearer token. */
export const completions = (key: string | null, body: unknown, headers: Record<string, string> = {}) =>
  call(OPENAI_PATH, { json: body, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });

/** A one-token question for /v1. */
export const tinyQuestion = (text = "hi") => ({ messages: [{ role: "user", content: `${text} [[tokens:1]]` }] });
