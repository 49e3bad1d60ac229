import type { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import { env, runInDurableObject } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import { expect } from "vitest";
import { publicAssistantResponse, type PlaygroundMessageBody, type PublicAssistant, type PublicAssistantBody } from "../../contract";
import * as schema from "../../worker/db/schema";
import type { ServiceContext } from "../../worker/services/context";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, json, tableCounts, type CallInit } from "./helpers";

/** A service context on the test's bindings, for calling worker services directly. */
export const testServiceContext = (): ServiceContext => ({ env: env as unknown as ServiceContext["env"], db: drizzle(env.DB, { schema }) });

/** Creates an assistant through the API (201 expected) and returns it. */
export async function createAssistant(token: string, body: PublicAssistantBody = {}): Promise<PublicAssistant> {
  const res = await call("/api/public-assistants", { token, json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res, publicAssistantResponse)).assistant;
}

export interface UploadPart {
  name: string;
  bytes: Uint8Array | string;
  /** Declared MIME type; the browser's empty type when omitted. */
  type?: string;
}

/** A multipart body with each part in the repeated field `files`. */
export function uploadForm(parts: UploadPart[]): FormData {
  const form = new FormData();
  for (const part of parts) {
    const bytes = typeof part.bytes === "string" ? new TextEncoder().encode(part.bytes) : new Uint8Array(part.bytes);
    form.append("files", new File([bytes], part.name, { type: part.type ?? "" }));
  }
  return form;
}

/** POST …/files with the parts. */
export const uploadFiles = (token: string, assistantId: string, parts: UploadPart[], init: CallInit = {}) =>
  call(`/api/public-assistants/${assistantId}/files`, { token, method: "POST", body: uploadForm(parts), ...init });

const one = async (sql: string, ...params: unknown[]) =>
  Number((await env.DB.prepare(sql).bind(...params).first<{ n: number }>())?.n ?? 0);

/** What an assistant's own object stores, read from its SQLite (no call: an erased object is not opened). */
export async function hubFootprint(assistantId: string): Promise<{ sessions: number; messages: number; files: number; chunks: number }> {
  return runInDurableObject(getAssistantHub(env, assistantId), (_instance, state) =>
    tableCounts(state.storage, { sessions: "visitor_sessions", messages: "visitor_messages", files: "knowledge_files", chunks: "knowledge_chunks" }),
  );
}

/** Rows and objects an assistant owns, counted straight from D1, R2 and the assistant's own object. */
export async function assistantFootprint(assistantId: string) {
  const objects = await env.FILES.list({ prefix: `assistants/${assistantId}/` });
  const hub = await hubFootprint(assistantId);
  return {
    assistants: await one("SELECT COUNT(*) AS n FROM public_assistants WHERE id = ?1", assistantId),
    files: (await one("SELECT COUNT(*) AS n FROM knowledge_files WHERE assistant_id = ?1", assistantId)) + hub.files,
    chunks: (await one("SELECT COUNT(*) AS n FROM knowledge_chunks WHERE assistant_id = ?1", assistantId)) + hub.chunks,
    // Visitor sessions live in the assistant's own object; legacy D1 rows (not moved yet) count too.
    sessions: (await one("SELECT COUNT(*) AS n FROM visitor_sessions WHERE assistant_id = ?1", assistantId)) + hub.sessions,
    messages:
      (await one(
        "SELECT COUNT(*) AS n FROM visitor_messages WHERE session_id IN (SELECT id FROM visitor_sessions WHERE assistant_id = ?1)",
        assistantId,
      )) + hub.messages,
    objects: objects.objects.length,
  };
}

/**
 * Rows of a query in an assistant's own object (AssistantHub SQLite); [] when the object has no
 * such table yet (never opened, or erased).
 */
export async function hubRows(assistantId: string, sql: string, ...binds: SqlStorageValue[]): Promise<Record<string, SqlStorageValue>[]> {
  return runInDurableObject(getAssistantHub(env, assistantId), (_instance, state) => {
    try {
      return state.storage.sql.exec(sql, ...binds).toArray();
    } catch (error) {
      if (/no such table/.test(String(error))) return [];
      throw error;
    }
  });
}

/** The first row of a query found in any assistant's own object, or null. */
export async function hubFirst(sql: string, ...binds: SqlStorageValue[]): Promise<Record<string, SqlStorageValue> | null> {
  const { results } = await env.DB.prepare("SELECT id FROM public_assistants").all<{ id: string }>();
  for (const { id } of results) {
    const [row] = await hubRows(id, sql, ...binds);
    if (row) return row;
  }
  return null;
}

/** A count query (`SELECT COUNT(*) AS n …`) summed over every assistant's own object. */
export async function hubCountAll(sql: string, ...binds: SqlStorageValue[]): Promise<number> {
  const { results } = await env.DB.prepare("SELECT id FROM public_assistants").all<{ id: string }>();
  let total = 0;
  for (const { id } of results) total += Number((await hubRows(id, sql, ...binds))[0]?.n ?? 0);
  return total;
}

/** Full-text index entries matching `term` (FTS5 MATCH over every assistant's index, D1's legacy one included). */
export const ftsMatches = async (term: string) =>
  (await one("SELECT COUNT(*) AS n FROM knowledge_chunks_fts WHERE knowledge_chunks_fts MATCH ?1", `"${term}"`)) +
  (await hubCountAll("SELECT COUNT(*) AS n FROM knowledge_chunks_fts WHERE knowledge_chunks_fts MATCH ?", `"${term}"`));

export interface SeedMessage {
  role: "user" | "assistant";
  text: string;
  files?: { name: string }[];
  sources?: { fileId: string; name: string; excerpt?: string }[];
}

/**
 * Inserts a visitor session and its messages with SQL, in the assistant's own object (where the
 * widget writes them). `seedLegacyVisitorSession` writes them where the version before the move did (D1).
 */
export async function seedVisitorSession(
  assistantId: string,
  options: { startedAt?: number; lastMessageAt?: number | null; referrer?: string; messages?: SeedMessage[] } = {},
): Promise<string> {
  const rows = visitorSessionRows(options);
  await runInDurableObject(getAssistantHub(env, assistantId), async (instance, state) => {
    // Opens the object (schema, copy, the legacy move) as any call would.
    await (instance as unknown as AssistantHub).history().count();
    const { sql } = state.storage;
    sql.exec(
      `INSERT INTO visitor_sessions (id, referrer, origin, user_agent, locale, message_count, started_at, last_message_at)
       VALUES (?, ?, 'https://shop.example', 'Mozilla/5.0 (test)', 'en-US', ?, ?, ?)`,
      rows.id, rows.referrer, rows.messages.length, rows.startedAt, rows.lastMessageAt,
    );
    for (const m of rows.messages) {
      sql.exec(
        `INSERT INTO visitor_messages (id, session_id, role, content_type, content, files, sources, created_at) VALUES (?, ?, ?, 'text', ?, ?, ?, ?)`,
        m.id, rows.id, m.role, m.text, m.files, m.sources, m.createdAt,
      );
    }
  });
  return rows.id;
}

/** As the version before the move stored them: rows in D1's visitor_sessions / visitor_messages. */
export async function seedLegacyVisitorSession(
  assistantId: string,
  options: { startedAt?: number; lastMessageAt?: number | null; referrer?: string; messages?: SeedMessage[] } = {},
): Promise<string> {
  const rows = visitorSessionRows(options);
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO visitor_sessions (id, assistant_id, referrer, origin, user_agent, locale, message_count, started_at, last_message_at)
       VALUES (?1, ?2, ?3, 'https://shop.example', 'Mozilla/5.0 (test)', 'en-US', ?4, ?5, ?6)`,
    ).bind(rows.id, assistantId, rows.referrer, rows.messages.length, rows.startedAt, rows.lastMessageAt),
    ...rows.messages.map((m) =>
      env.DB.prepare(
        `INSERT INTO visitor_messages (id, session_id, role, content_type, content, files, sources, created_at)
         VALUES (?1, ?2, ?3, 'text', ?4, ?5, ?6, ?7)`,
      ).bind(m.id, rows.id, m.role, m.text, m.files, m.sources, m.createdAt),
    ),
  ]);
  return rows.id;
}

function visitorSessionRows(options: { startedAt?: number; lastMessageAt?: number | null; referrer?: string; messages?: SeedMessage[] }) {
  const startedAt = options.startedAt ?? Date.now();
  const messages = options.messages ?? [];
  const lastMessageAt = options.lastMessageAt === undefined ? (messages.length ? startedAt + messages.length : null) : options.lastMessageAt;
  return {
    id: crypto.randomUUID(),
    startedAt,
    lastMessageAt,
    referrer: options.referrer ?? "https://shop.example/pricing",
    messages: messages.map((m, i) => ({
      id: crypto.randomUUID(),
      role: m.role,
      text: m.text,
      files: JSON.stringify(m.files ?? []),
      sources: JSON.stringify(m.sources ?? []),
      createdAt: startedAt + i + 1,
    })),
  };
}

type RouteBody = "json" | "multipart" | "playground";

/** Every route of /api/public-assistants for `id` (and a file id, a visitor session id), with its method: for the 401/404 sweeps. */
export function everyRoute(id: string, fileId: string, sessionId: string = crypto.randomUUID()): { method: string; path: string; body?: RouteBody }[] {
  const base = `/api/public-assistants/${id}`;
  return [
    { method: "GET", path: base },
    { method: "PUT", path: base, body: "json" },
    { method: "DELETE", path: base },
    { method: "GET", path: `${base}/raw-api-key` },
    { method: "POST", path: `${base}/regenerate-key` },
    { method: "GET", path: `${base}/integration-code` },
    { method: "POST", path: `${base}/files`, body: "multipart" },
    { method: "DELETE", path: `${base}/files/${fileId}` },
    { method: "GET", path: `${base}/files/${fileId}/download` },
    { method: "GET", path: `${base}/search?q=warranty` },
    { method: "GET", path: `${base}/chats?page=1&limit=10` },
    { method: "GET", path: `${base}/chats/export` },
    { method: "GET", path: `${base}/chats/debug` },
    { method: "GET", path: `${base}/chats/${sessionId}` },
    { method: "POST", path: `${base}/playground`, body: "playground" },
    { method: "GET", path: `${base}/insights?days=7` },
  ];
}

/** The request init for one of `everyRoute`'s entries. */
export function routeInit(route: { method: string; body?: RouteBody }, auth: CallInit = {}): CallInit {
  if (route.body === "playground") return { ...auth, method: route.method, json: { content: "What is the warranty code word?", clientMessageId: "sweep" } };
  if (route.body === "json") return { ...auth, method: route.method, json: { name: "Hijacked", isActive: false } };
  if (route.body === "multipart") return { ...auth, method: route.method, body: uploadForm([{ name: "x.txt", bytes: "intruder text" }]) };
  return { ...auth, method: route.method };
}

/**
 * POST …/playground with the owner's token: the message (a fresh clientMessageId unless given) and
 * its earlier turns. Loosely typed on purpose: the error tests send what the contract refuses.
 */
export const playgroundCall = (
  token: string | undefined,
  assistantId: string,
  body: { [K in keyof PlaygroundMessageBody]?: unknown } & Record<string, unknown>,
  init: CallInit = {},
) => call(`/api/public-assistants/${assistantId}/playground`, { token, json: { clientMessageId: crypto.randomUUID(), ...body }, ...init });
