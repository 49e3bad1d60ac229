import { env, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import {
  inboxResponse,
  visitorMessageSchema,
  visitorSessionResponse,
  widgetApiPaths,
  widgetHandoffResponse,
  widgetSessionResponse,
  type HandoffSettings,
  type WidgetServerFrame,
} from "../../contract";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, json, outbox, randomIp } from "./helpers";
import { sendOverSse, sseFrames, startSession, widgetAssistant, widgetCall } from "./widget-helpers";

/** Helpers of tests/integration/handoff.*.test.ts: a person taking over a visitor's conversation. */

const chatPath = (assistantId: string, sessionId: string) => `/api/public-assistants/${assistantId}/chats/${sessionId}`;

/** A fresh owner and assistant with these handoff settings (no knowledge), and one visitor session. */
export async function handoffConversation(handoff: Partial<HandoffSettings> = {}) {
  const owner = await widgetAssistant({ config: { handoff } }, { upload: false });
  const { sessionId } = await startSession(owner.key);
  return { ...owner, assistantId: owner.assistant._id, sessionId };
}

export const takeOver = (token: string, assistantId: string, sessionId: string) => call(`${chatPath(assistantId, sessionId)}/takeover`, { token, method: "POST" });
export const handBack = (token: string, assistantId: string, sessionId: string) => call(`${chatPath(assistantId, sessionId)}/takeover`, { token, method: "DELETE" });
export const agentSays = (token: string, assistantId: string, sessionId: string, content: unknown) => call(`${chatPath(assistantId, sessionId)}/messages`, { token, json: { content } });
export const agentTypes = (token: string, assistantId: string, sessionId: string, typing: unknown) => call(`${chatPath(assistantId, sessionId)}/typing`, { token, json: { typing } });
export const markRead = (token: string, assistantId: string, sessionId: string) => call(`${chatPath(assistantId, sessionId)}/read`, { token, method: "POST" });
export const inbox = (token: string, assistantId: string, query = "") => call(`/api/public-assistants/${assistantId}/inbox${query}`, { token });

/** POST …/takeover expecting 200; the session as the owner reads it. */
export async function tookOver(token: string, assistantId: string, sessionId: string) {
  const res = await takeOver(token, assistantId, sessionId);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json(res, visitorSessionResponse)).session;
}

/** A person's message expecting 201; the message in the owner's shape. */
export async function agentSaid(token: string, assistantId: string, sessionId: string, content: string) {
  const res = await agentSays(token, assistantId, sessionId, content);
  expect(res.status, await res.clone().text()).toBe(201);
  return visitorMessageSchema.parse(((await res.json()) as { message: unknown }).message);
}

/** The visitor's POST/DELETE …/handoff with the key (and a body). */
export const visitorHandoff = (key: string, sessionId: string, init: { method?: "POST" | "DELETE"; body?: unknown; ip?: string; headers?: Record<string, string> } = {}) =>
  widgetCall(widgetApiPaths.handoff(sessionId), { key, ip: init.ip ?? randomIp(), method: init.method ?? "POST", headers: init.headers, ...(init.body !== undefined ? { json: init.body } : {}) });

export async function askedForPerson(key: string, sessionId: string, body?: unknown) {
  const res = await visitorHandoff(key, sessionId, { body });
  expect(res.status, await res.clone().text()).toBe(202);
  return (await json(res, widgetHandoffResponse)).handoff;
}

/** The owner's inbox page, parsed. */
export async function inboxOf(token: string, assistantId: string, query = "") {
  const res = await inbox(token, assistantId, query);
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, inboxResponse);
}

/** The visitor's view of the session (GET with the key). */
export async function visitorView(key: string, sessionId: string) {
  const res = await widgetCall(widgetApiPaths.session(sessionId), { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, widgetSessionResponse);
}

/** One visitor message over SSE (a fresh address), its frames parsed with the contract. */
export const visitorSays = async (key: string, sessionId: string, content: string): Promise<WidgetServerFrame[]> =>
  sseFrames(await sendOverSse(key, sessionId, { content }, { ip: randomIp() }));

/** The session's row and message roles straight from the assistant's object. */
export async function hubRows(assistantId: string, sessionId: string) {
  return runInDurableObject(getAssistantHub(env, assistantId), (_instance, state) => {
    const { sql } = state.storage;
    const [session] = sql.exec("SELECT * FROM visitor_sessions WHERE id = ?", sessionId).toArray();
    const roles = sql.exec("SELECT role FROM visitor_messages WHERE session_id = ? ORDER BY created_at, id", sessionId).toArray().map((r) => String(r.role));
    const [day] = sql.exec("SELECT coalesce(sum(count), 0) AS n FROM daily_counts").toArray();
    return { session: session as Record<string, SqlStorageValue>, roles, dailyCount: Number(day?.n ?? 0) };
  });
}

/** Every e-mail sent to `to`, waiting up to `timeoutMs` for at least `count` (e-mails go after the response). */
export async function emailsTo(to: string, count: number, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const emails = await outbox(to);
    if (emails.length >= count || Date.now() > deadline) return emails;
    await new Promise((r) => setTimeout(r, 50));
  }
}
