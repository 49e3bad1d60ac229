/**
 * The widget's checks of what the server sends (socket frames, SSE events, session and config
 * bodies). The contract's zod schemas (contract/schemas/widget.ts) would triple the core's size, so
 * these are hand-written guards of the fields the widget reads; frames.test.ts checks they accept
 * everything the contract's parsers accept, and refuse what would break the widget. Anything that
 * does not match is dropped, never thrown.
 */
import type { WidgetConfigResponse, WidgetMessage, WidgetServerFrame, WidgetSessionResponse } from "../../../contract/schemas/widget";

type Obj = Record<string, unknown>;
type Check = (v: unknown) => boolean;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const isBool = (v: unknown) => typeof v === "boolean";
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
const opt = (check: Check) => (v: unknown) => v === undefined || check(v);
const list = (check: Check) => (v: unknown) => Array.isArray(v) && v.every(check);
/** An object whose listed fields pass their checks (other fields are not looked at). */
const shape = (fields: Record<string, Check>) => (v: unknown) => isObj(v) && Object.entries(fields).every(([k, check]) => check(v[k]));

/** A file or web page (no `kind`), or a curated answer (`kind: "qa"`, which carries `fileId` and `excerpt` too). */
const isSources = opt(list(shape({ fileId: isStr, name: isStr, excerpt: isStr, url: opt(isStr), kind: opt(isStr), qaId: opt(isStr) })));

export const isMessage = shape({
  id: isStr,
  role: (v) => /^(user|assistant|system|agent)$/.test(v as string),
  content: shape({ data: isStr }),
  files: list(shape({ name: isStr })),
  status: isStr,
  sources: isSources,
}) as (v: unknown) => v is WidgetMessage;

const checks: Record<string, Check> = {
  thinking: shape({ messageId: isStr }),
  "message-delta": shape({ messageId: isStr, delta: isStr, offset: isCount }),
  "new-message": shape({ message: isMessage, clientMessageId: opt(isStr), sources: isSources }),
  "message-error": shape({ error: isStr, reason: opt(isStr), clientMessageId: opt(isStr), message: opt(isMessage) }),
  "remaining-messages": shape({ remaining: isCount, limit: isCount }),
  // A person taking over: the handoff chunk checks these (and a person's message's `author`) before it shows any.
  handoff: isObj,
  typing: isObj,
};

/** One server event (a socket frame's `event` + `data`, or an SSE event's name + parsed data). */
export function toFrame(event: unknown, data: unknown): WidgetServerFrame | null {
  return isStr(event) && Object.hasOwn(checks, event) && checks[event]!(data) ? ({ event, data } as WidgetServerFrame) : null;
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

export const isConfig = shape({
  limits: isObj,
  assistant: shape({
    id: isStr,
    headerText: isStr,
    welcomeMessage: isStr,
    primaryColor: isStr,
    position: isStr,
    size: isStr,
    allowAttachments: isBool,
    showSources: isBool,
    starterQuestions: opt(list(isStr)),
    theme: opt(isStr),
    language: opt(isStr),
    availabilityLine: opt(isStr),
    avatarUrl: opt(isStr),
    contactLine: opt(isStr),
    privacyNotice: opt(isStr),
    privacyUrl: opt(isStr),
  }),
}) as (v: unknown) => v is WidgetConfigResponse;

export const isSession = shape({
  sessionId: isStr,
  messages: list(isMessage),
  remaining: shape({ session: isCount, daily: isCount }),
}) as (v: unknown) => v is WidgetSessionResponse;

/** GET /api/widget/conversations (contract/schemas/visitors.ts: visitorConversationsResponse); the visitor chunk's. */
export const isConversations = shape({
  conversations: list(shape({ sessionId: isStr, title: isStr, lastMessageAt: (v) => typeof v === "number" })),
}) as (v: unknown) => v is { conversations: { sessionId: string; title: string; lastMessageAt: number }[] };
