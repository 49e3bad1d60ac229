/**
 * The widget's checks of what the server sends (socket frames, SSE events, session and config
 * bodies). The contract's zod schemas (contract/schemas/widget.ts) would triple the core's size, so
 * these are hand-written guards of the fields the widget reads; frames.test.ts checks they accept
 * everything the contract's parsers accept, and refuse what would break the widget. Anything that
 * does not match is dropped, never thrown.
 */
import type { WidgetConfigResponse, WidgetMessage, WidgetServerFrame, WidgetSessionResponse, WidgetSource } from "../../../contract/schemas/widget";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const optStr = (v: unknown) => v === undefined || isStr(v);

const isSource = (v: unknown): v is WidgetSource => isObj(v) && isStr(v.fileId) && isStr(v.name) && isStr(v.excerpt);
const isSources = (v: unknown) => v === undefined || (Array.isArray(v) && v.every(isSource));

export function isMessage(v: unknown): v is WidgetMessage {
  return (
    isObj(v) &&
    isStr(v.id) &&
    /^(user|assistant|system)$/.test(v.role as string) &&
    isObj(v.content) &&
    isStr(v.content.data) &&
    Array.isArray(v.files) &&
    v.files.every((f) => isObj(f) && isStr(f.name)) &&
    isStr(v.status) &&
    isSources(v.sources)
  );
}

const checks: Record<string, (d: Obj) => boolean> = {
  thinking: (d) => isStr(d.messageId),
  "message-delta": (d) => isStr(d.messageId) && isStr(d.delta) && isCount(d.offset),
  "new-message": (d) => isMessage(d.message) && optStr(d.clientMessageId) && isSources(d.sources),
  "message-error": (d) => isStr(d.error) && optStr(d.reason) && optStr(d.clientMessageId) && (d.message === undefined || isMessage(d.message)),
  "remaining-messages": (d) => isCount(d.remaining) && isCount(d.limit),
};

/** One server event (a socket frame's `event` + `data`, or an SSE event's name + parsed data). */
export function toFrame(event: unknown, data: unknown): WidgetServerFrame | null {
  const check = isStr(event) && Object.hasOwn(checks, event) ? checks[event] : null;
  return check && isObj(data) && check(data) ? ({ event, data } as WidgetServerFrame) : null;
}

/** A socket frame's text. */
export function parseFrame(raw: unknown): WidgetServerFrame | null {
  try {
    const json = JSON.parse(raw as string);
    return isObj(json) ? toFrame(json.event, json.data) : null;
  } catch {
    return null;
  }
}

export function isConfig(v: unknown): v is WidgetConfigResponse {
  const a = isObj(v) && isObj(v.limits) && v.assistant;
  return (
    isObj(a) &&
    [a.id, a.headerText, a.welcomeMessage, a.primaryColor, a.position, a.size].every(isStr) &&
    typeof a.allowAttachments === "boolean" &&
    typeof a.showSources === "boolean"
  );
}

export function isSession(v: unknown): v is WidgetSessionResponse {
  return isObj(v) && isStr(v.sessionId) && Array.isArray(v.messages) && v.messages.every(isMessage) && isObj(v.remaining) && isCount(v.remaining.session) && isCount(v.remaining.daily);
}
