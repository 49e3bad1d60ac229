import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import {
  apiKeyResponse,
  parseWidgetServerFrame,
  parseWidgetSseEvent,
  visitorIdentity,
  widget,
  widgetClientFrames,
  widgetRoomPath,
  widgetSessionResponse,
  type PublicAssistant,
  type PublicAssistantBody,
  type WidgetSendMessageData,
  type WidgetServerEvent,
  type WidgetServerFrame,
} from "../../contract";
import { call, json, randomIp, registerUser, type CallInit } from "./helpers";
import { createAssistant, uploadFiles } from "./public-assistants-helpers";

export const SHOP_ORIGIN = "https://shop.example";

/** A knowledge document with one distinctive passage. */
export const REFUND_DOC = {
  name: "refund-policy.md",
  bytes:
    "# Refund policy\n\nCustomers may return any zephyrboard within 45 days of delivery for a full refund. " +
    "Refunds are paid to the original card within 5 business days.\n\n# Shipping\n\nWe ship to Morocco, France and Spain.",
};

export interface WidgetAssistant {
  token: string;
  assistant: PublicAssistant;
  key: string;
}

/** A fresh owner and assistant (settings in `body`), its full API key, and optionally the refund document uploaded. */
export async function widgetAssistant(body: PublicAssistantBody = {}, options: { upload?: boolean } = {}): Promise<WidgetAssistant> {
  const { token } = await registerUser();
  const assistant = await createAssistant(token, { name: "Shop helper", ...body });
  if (options.upload !== false) {
    const res = await uploadFiles(token, assistant._id, [{ ...REFUND_DOC, type: "text/markdown" }]);
    expect(res.status, await res.clone().text()).toBe(201);
  }
  const res = await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token });
  const { apiKey } = await json(res, apiKeyResponse);
  return { token, assistant, key: apiKey };
}

export interface WidgetCallInit extends CallInit {
  key?: string;
  origin?: string;
}

/** A widget HTTP call: the key in X-Assistant-Key, an Origin header when given. */
export function widgetCall(path: string, init: WidgetCallInit = {}) {
  const { key, origin, headers, ...rest } = init;
  const h = new Headers(headers);
  if (key !== undefined) h.set(widget.keyHeader, key);
  if (origin) h.set("origin", origin);
  return call(path, { ...rest, headers: h });
}

/** POST /api/widget/sessions, expecting 201 (or `status`). */
export async function startSession(key: string, init: { origin?: string; ip?: string; visitorSessionId?: string; status?: number } = {}) {
  const res = await widgetCall("/api/widget/sessions", {
    key,
    origin: init.origin,
    ip: init.ip,
    json: { visitorSessionId: init.visitorSessionId, referrer: "https://shop.example/help", locale: "en-US" },
  });
  expect(res.status, await res.clone().text()).toBe(init.status ?? 201);
  return json(res, widgetSessionResponse);
}

export interface SseEvent {
  event: string;
  data: string;
}

/** Reads a whole text/event-stream body into raw events (`event:` + `data:` lines). */
export async function readSseEvents(res: Response): Promise<SseEvent[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "";
      const data = lines
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .join("\n");
      return { event, data };
    });
}

/** A message sent over SSE; every event parsed with the contract (one that does not parse fails the test). */
export async function sendOverSse(key: string, sessionId: string, data: Partial<WidgetSendMessageData>, init: { origin?: string; ip?: string } = {}) {
  const res = await widgetCall(`/api/widget/sessions/${sessionId}/messages`, {
    key,
    origin: init.origin,
    ip: init.ip,
    json: { clientMessageId: crypto.randomUUID(), ...data },
  });
  return res;
}

export async function sseFrames(res: Response): Promise<WidgetServerFrame[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events = await readSseEvents(res);
  return events.map((e) => {
    const frame = parseWidgetSseEvent(e.event, e.data);
    expect(frame, `unparsable SSE event ${e.event}: ${e.data}`).not.toBeNull();
    return frame!;
  });
}

type DataOf = { [F in WidgetServerFrame as F["event"]]: F["data"] };

/** A test's end of a widget socket: frames parsed with the contract, waited on by predicate. */
export class WidgetSocket {
  readonly frames: WidgetServerFrame[] = [];
  readonly invalid: string[] = [];
  closed: { code: number; reason?: string } | null = null;
  private closeWaiters: (() => void)[] = [];
  private waiters: { test: (f: WidgetServerFrame) => boolean; resolve: (f: WidgetServerFrame) => void }[] = [];

  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (event) => {
      const frame = parseWidgetServerFrame(event.data);
      if (!frame) {
        this.invalid.push(String(event.data));
        return;
      }
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
    ws.addEventListener("close", (event) => {
      this.closed = { code: event.code, reason: event.reason };
      for (const wake of this.closeWaiters.splice(0)) wake();
    });
  }

  /** The server's close code and reason, waiting for it at most `timeoutMs`. */
  waitClosed(timeoutMs = 8000): Promise<{ code: number; reason?: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`widget socket still open after ${timeoutMs} ms`)), timeoutMs);
      this.closeWaiters.push(() => {
        clearTimeout(timer);
        resolve(this.closed!);
      });
    });
  }

  sendMessage(data: Partial<WidgetSendMessageData>) {
    const clientMessageId = data.clientMessageId ?? crypto.randomUUID();
    this.ws.send(JSON.stringify(widgetClientFrames.sendMessage({ content: "", ...data, clientMessageId })));
    return clientMessageId;
  }

  next<E extends WidgetServerEvent>(event: E, test: (data: DataOf[E]) => boolean = () => true, timeoutMs = 8000): Promise<DataOf[E]> {
    const matches = (f: WidgetServerFrame) => f.event === event && test(f.data as DataOf[E]);
    const seen = this.frames.find(matches);
    if (seen) return Promise.resolve(seen.data as DataOf[E]);
    return new Promise<DataOf[E]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event} frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.map((f) => f.event))}`)), timeoutMs);
      this.waiters.push({
        test: matches,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f.data as DataOf[E]);
        },
      });
    });
  }

  all<E extends WidgetServerEvent>(event: E): DataOf[E][] {
    return this.frames.filter((f) => f.event === event).map((f) => f.data as DataOf[E]);
  }

  close() {
    try {
      this.ws.close(1000, "done");
    } catch {
      // already closed
    }
  }
}

/** The raw upgrade response of a widget socket. */
export function connectWidgetRaw(sessionId: string, key: string | undefined, init: { origin?: string; ip?: string; upgrade?: boolean; visitorToken?: string } = {}) {
  const url = new URL(`http://tala.test${widgetRoomPath(sessionId)}`);
  if (key !== undefined) url.searchParams.set(widget.keyQuery, key);
  if (init.visitorToken !== undefined) url.searchParams.set(visitorIdentity.socketQuery, init.visitorToken);
  const headers = new Headers({ "cf-connecting-ip": init.ip ?? randomIp() });
  if (init.upgrade !== false) headers.set("upgrade", "websocket");
  if (init.origin) headers.set("origin", init.origin);
  return exports.default.fetch(new Request(url, { headers }));
}

export async function openWidgetSocket(sessionId: string, key: string, init: { origin?: string; ip?: string; visitorToken?: string } = {}): Promise<WidgetSocket> {
  const res = await connectWidgetRaw(sessionId, key, init);
  if (res.status !== 101 || !res.webSocket) throw new Error(`socket refused: ${res.status} ${await res.text()}`);
  return new WidgetSocket(res.webSocket);
}

/**
 * Rows of a session straight from storage: the assistant's own object (AssistantHub SQLite)
 * that holds it, found among every assistant's objects (sessions no longer live in D1).
 */
export async function sessionRows(sessionId: string) {
  const { env, runInDurableObject } = await import("cloudflare:test");
  const { getAssistantHub } = await import("../../worker/durable-objects/stubs");
  const { results: assistants } = await env.DB.prepare("SELECT id FROM public_assistants").all<{ id: string }>();
  for (const { id } of assistants) {
    const found = await runInDurableObject(getAssistantHub(env, id), (_instance, state) => {
      const { sql } = state.storage;
      if (!sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'visitor_sessions'").toArray().length) return null;
      const [session] = sql.exec("SELECT * FROM visitor_sessions WHERE id = ?", sessionId).toArray();
      if (!session) return null;
      const messages = sql.exec("SELECT role, content, sources, created_at FROM visitor_messages WHERE session_id = ? ORDER BY created_at, id", sessionId).toArray();
      return { session: session as Record<string, unknown>, messages: messages as unknown as { role: string; content: string; sources: string; created_at: number }[] };
    });
    if (found) return found;
  }
  return { session: null as Record<string, unknown> | null, messages: [] as { role: string; content: string; sources: string; created_at: number }[] };
}
