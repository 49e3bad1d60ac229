/**
 * The Inbox's pure logic: which filter a conversation belongs to, an `inbox` frame applied to the
 * list on screen (rows moved to the top, counts kept), and to the open conversation (messages
 * upserted by id, the reply streaming in, the visitor typing, the handoff). No React, unit-tested.
 */
import {
  handoffLimits,
  inboxUi,
  visitorMessageSchema,
  type InboxConversation,
  type InboxCounts,
  type InboxFilter,
  type InboxFrameData,
  type InboxResponse,
  type VisitorMessage,
  type VisitorSession,
  timeFormat,
} from "../../../../../contract";
import { formatDay, formatTime } from "../../../lib/format";
import { applyDelta } from "../../chat/chat-reducer";

/** Whether a conversation is listed under a filter (as the server lists it). */
export function matchesFilter(c: InboxConversation, filter: InboxFilter): boolean {
  switch (filter) {
    case "needs-person":
      return c.handoff.state === "requested";
    case "with-person":
      return c.handoff.state === "taken";
    case "live":
      return c.live;
    case "all":
      return true;
  }
}

/** What one conversation adds to the counts. */
function countsOf(c: InboxConversation): InboxCounts {
  return { needsPerson: c.handoff.state === "requested" ? 1 : 0, withPerson: c.handoff.state === "taken" ? 1 : 0, live: c.live ? 1 : 0, unread: c.unread };
}

function addCounts(a: InboxCounts, b: InboxCounts, sign: 1 | -1): InboxCounts {
  const n = (x: number, y: number) => Math.max(0, x + sign * y);
  return { needsPerson: n(a.needsPerson, b.needsPerson), withPerson: n(a.withPerson, b.withPerson), live: n(a.live, b.live), unread: n(a.unread, b.unread) };
}

const byActivity = (a: InboxConversation, b: InboxConversation) => (b.lastMessageAt ?? 0) - (a.lastMessageAt ?? 0);

export interface ListUpdate {
  data: InboxResponse;
  /** The counts could not be kept from what is on screen (a conversation not listed here changed): read them again. */
  stale: boolean;
}

/**
 * An `inbox` frame applied to the page on screen. A conversation this page lists is updated in
 * place (moved up by its activity); a new one enters page 1 at the top; one that no longer
 * matches the filter leaves. `openSessionId`'s unread stays 0 (the owner reads it).
 */
export function applyFrameToList(data: InboxResponse, frame: InboxFrameData, filter: InboxFilter, page: number, openSessionId: string | null): ListUpdate {
  if (!frame.conversation || (frame.kind !== "message" && frame.kind !== "handoff")) return { data, stale: false };
  const next: InboxConversation = frame.conversation.sessionId === openSessionId ? { ...frame.conversation, unread: 0 } : frame.conversation;
  const index = data.conversations.findIndex((c) => c.sessionId === next.sessionId);
  const previous = index >= 0 ? data.conversations[index]! : undefined;
  const counts = previous ? addCounts(addCounts(data.counts, countsOf(previous), -1), countsOf(next), 1) : data.counts;
  let conversations = data.conversations;
  let total = data.total;
  if (matchesFilter(next, filter)) {
    if (previous) conversations = data.conversations.map((c, i) => (i === index ? next : c)).sort(byActivity);
    else if (page === 1) {
      conversations = [next, ...data.conversations].sort(byActivity).slice(0, handoffLimits.inboxPageSize);
      total += 1;
    }
  } else if (previous) {
    conversations = data.conversations.filter((_, i) => i !== index);
    total = Math.max(0, total - 1);
  }
  return { data: { ...data, conversations, total, counts }, stale: !previous };
}

/** The row of the open conversation, read: unread 0 (and the count with it). */
export function markRowRead(data: InboxResponse, sessionId: string): InboxResponse {
  const row = data.conversations.find((c) => c.sessionId === sessionId);
  if (!row || row.unread === 0) return data;
  return {
    ...data,
    conversations: data.conversations.map((c) => (c === row ? { ...c, unread: 0 } : c)),
    counts: { ...data.counts, unread: Math.max(0, data.counts.unread - row.unread) },
  };
}

/** How a row names the visitor: a signed visitor's name (else e-mail), else their locale and page. */
export function visitorLabel(c: Pick<InboxConversation, "visitor" | "locale" | "referrer">): string {
  if (c.visitor) return c.visitor.name || c.visitor.email || c.visitor.id;
  return inboxUi.visitorFrom(c.locale, c.referrer ? pageOf(c.referrer) : undefined);
}

/** A row's time: the hour on the day it is (local time), else the day. */
export function rowTime(at: number, now: number): string {
  const a = new Date(at);
  const b = new Date(now);
  const sameDay = a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  return sameDay ? formatTime(at, timeFormat.message) : formatDay(at);
}

/** A preview without the Markdown marks a person or the assistant wrote (`**bold**` reads as bold). */
export const plainPreview = (text: string) => text.replace(/[*_`#>~]+/g, "").replace(/\s+/g, " ").trim();

/** A page address without its query and fragment (they can be long, or carry a site's tokens). */
export function pageOf(referrer: string): string {
  try {
    const url = new URL(referrer);
    return url.host + (url.pathname === "/" ? "" : url.pathname);
  } catch {
    return referrer;
  }
}

// ---- the open conversation ----------------------------------------------------------------------

export interface LiveConversation {
  session: VisitorSession;
  /** The assistant's reply being written (watched conversations): its id and text so far. */
  streaming: { messageId: string; text: string } | null;
  /** A reply was started, no text yet. */
  thinking: boolean;
  /** The visitor types until this time (ms), or null. */
  visitorTypingUntil: number | null;
}

export const liveConversation = (session: VisitorSession): LiveConversation => ({ session, streaming: null, thinking: false, visitorTypingUntil: null });

const sameMessage = (a: VisitorMessage, b: VisitorMessage) =>
  a.id !== undefined && b.id !== undefined ? a.id === b.id : a.role === b.role && a.timestamp === b.timestamp && a.content.data === b.content.data;

/** A message added to the conversation, or put in place of the one with its id (a reply saved again). */
export function upsertMessage(session: VisitorSession, message: VisitorMessage): VisitorSession {
  const index = session.messages.findIndex((m) => sameMessage(m, message));
  if (index >= 0) return { ...session, messages: session.messages.map((m, i) => (i === index ? message : m)) };
  const messages = [...session.messages, message].sort((a, b) => a.timestamp - b.timestamp);
  return { ...session, messages, messageCount: Math.max(session.messageCount + 1, messages.length), lastMessageAt: Math.max(session.lastMessageAt ?? 0, message.timestamp) };
}

/** An `inbox` frame of the open conversation applied to it; `now` for the typing indicator's end. */
export function applyFrameToConversation(state: LiveConversation, frame: InboxFrameData, now: number): LiveConversation {
  if (frame.sessionId !== state.session.sessionId) return state;
  let session = state.session;
  if (frame.conversation) {
    session = { ...session, handoff: frame.conversation.handoff, ...(frame.conversation.contactEmail ? { contactEmail: frame.conversation.contactEmail } : {}) };
  }
  switch (frame.kind) {
    case "message": {
      const parsed = visitorMessageSchema.safeParse(frame.message);
      if (!parsed.success) return { ...state, session };
      const message = parsed.data;
      const ended = message.role === "assistant";
      return {
        session: upsertMessage(session, message),
        streaming: ended || (state.streaming && state.streaming.messageId === message.id) ? null : state.streaming,
        thinking: ended ? false : state.thinking,
        visitorTypingUntil: message.role === "user" ? null : state.visitorTypingUntil,
      };
    }
    case "handoff":
      return { ...state, session };
    case "typing":
      return { ...state, session, visitorTypingUntil: frame.typing ? now + handoffLimits.typingTtlMs : null };
    case "thinking":
      return { ...state, session, thinking: true };
    case "delta": {
      if (!frame.delta) return state;
      const base = state.streaming?.messageId === frame.delta.messageId ? state.streaming.text : "";
      const text = applyDelta(base, frame.delta.text, frame.delta.offset);
      // A delta past what arrived (one was missed): the text so far is kept; the saved reply replaces it.
      if (text === null) return { ...state, session };
      return { ...state, session, thinking: false, streaming: { messageId: frame.delta.messageId, text } };
    }
  }
}
