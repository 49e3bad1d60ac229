import { env, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import {
  identitySecretCreated,
  identitySecretStatus,
  visitorConversationsResponse,
  visitorIdentity,
  widgetSessionResponse,
  type IdentitySecretCreated,
} from "../../contract";
import { signVisitorToken } from "../../worker/crypto/visitor-token";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, json } from "./helpers";
import { widgetCall } from "./widget-helpers";

/** Helpers: the owner's identity-secret routes, signed visitors, their widget calls. */

export const secretPath = (assistantId: string) => `/api/public-assistants/${assistantId}/identity-secret`;

/** POST …/identity-secret (create or rotate), expecting 201. */
export async function createIdentitySecret(token: string, assistantId: string, graceHours?: number): Promise<IdentitySecretCreated> {
  const res = await call(secretPath(assistantId), { token, json: graceHours === undefined ? {} : { graceHours } });
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res, identitySecretCreated);
}

export async function identityStatus(token: string, assistantId: string) {
  const res = await call(secretPath(assistantId), { token });
  expect(res.status).toBe(200);
  return json(res, identitySecretStatus);
}

const nowS = () => Math.floor(Date.now() / 1000);

/** A token as a site's server makes it: sub, optional name/e-mail, exp an hour ahead unless given. */
export function visitorToken(secret: string, claims: { sub: string; name?: string; email?: string; exp?: number; iat?: number } & Record<string, unknown>) {
  return signVisitorToken({ exp: nowS() + 3600, ...claims }, secret);
}

/** POST /api/widget/sessions with a userToken (and optionally a session to resume); returns the raw response. */
export function startSignedSessionRaw(key: string, userToken: string | undefined, visitorSessionId?: string) {
  return widgetCall("/api/widget/sessions", { key, json: { userToken, visitorSessionId, referrer: "https://shop.example/account", locale: "en-US" } });
}

export async function startSignedSession(key: string, userToken: string | undefined, visitorSessionId?: string, status = 201) {
  const res = await startSignedSessionRaw(key, userToken, visitorSessionId);
  expect(res.status, await res.clone().text()).toBe(status);
  return json(res, widgetSessionResponse);
}

/** GET /api/widget/conversations with the token (raw response). */
export const conversationsRaw = (key: string, token?: string) =>
  widgetCall("/api/widget/conversations", { key, headers: token ? { [visitorIdentity.tokenHeader]: token } : {} });

export async function conversations(key: string, token: string) {
  const res = await conversationsRaw(key, token);
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, visitorConversationsResponse);
}

/** A message over SSE with the visitor's token in X-Visitor-Token. */
export const sendSigned = (key: string, sessionId: string, content: string, token?: string) =>
  widgetCall(`/api/widget/sessions/${sessionId}/messages`, {
    key,
    headers: token ? { [visitorIdentity.tokenHeader]: token } : {},
    json: { clientMessageId: crypto.randomUUID(), content },
  });

/** Moves the previous secret's end of grace (the tests' clock: the hub reads it on every verification). */
export async function setPreviousExpiry(assistantId: string, expiresAt: number) {
  await runInDurableObject(getAssistantHub(env, assistantId), (_instance, state) => {
    state.storage.sql.exec("UPDATE identity_secrets SET expires_at = ? WHERE slot = 'previous'", expiresAt);
  });
}
