import {
  handoffLimits,
  handoffMessages,
  insightsLimits,
  widget,
  type AgentAuthor,
  type ConversationHandoff,
  type HandoffSettings,
  type InboxConversation,
  type InboxCounts,
  type InboxFilter,
} from "../../contract";
import { preview } from "./insights-store";
import { sessionVisitor, type SessionHandoffRow, type VisitorSessionRow, type VisitorStore } from "./visitor-store";

/**
 * A person taking over a visitor's conversation, in the assistant's own object (SQLite columns of
 * `visitor_sessions` from 0015_handoff): the state `none` → `requested` (the visitor asked) →
 * `taken` (a person has it) → `none` (handed back, ended idle, or ended by a revocation), the
 * person's messages (role "agent"), the address a visitor left, the owner's unread counts, the
 * e-mails' throttles, and the inbox's rows. Every method is synchronous (one step under any
 * concurrency). No import from `cloudflare:workers`.
 */

type SqlHost = Pick<DurableObjectStorage, "sql" | "transactionSync">;
type SessionRow = VisitorSessionRow & { counted: number };

const num = (v: SqlStorageValue | undefined) => Number(v ?? 0);
/** Characters of the last message shown in an inbox row. */
const PREVIEW_CHARS = 140;

/** The handoff a session carries (a legacy row without the columns: none). */
export const handoffOf = (row: Pick<VisitorSessionRow, "handoff">): SessionHandoffRow =>
  row.handoff ?? {
    state: "none",
    since: null,
    requestedAt: null,
    takenAt: null,
    activeAt: null,
    firstReplyAt: null,
    offeredAt: null,
    agent: null,
    agentUserId: null,
    contactEmail: null,
    ownerReadAt: 0,
    ownerEmailedAt: null,
    visitorEmailedAt: null,
  };

/**
 * The conversation's handoff as the visitor and the owner see it (schemas/handoff.ts). The owner's
 * texts go with a request; `askEmailAt` only to an anonymous visitor who left no address.
 */
export function conversationHandoff(row: Pick<VisitorSessionRow, "handoff" | "visitorSub" | "visitorEmail">, settings: HandoffSettings): ConversationHandoff {
  const h = handoffOf(row);
  const emailLeft = Boolean(h.contactEmail || row.visitorEmail);
  if (h.state === "none") return { state: "none", ...(emailLeft ? { emailLeft } : {}) };
  const texts = {
    ...(settings.businessHours ? { businessHours: settings.businessHours } : {}),
    ...(settings.replyTime ? { replyTime: settings.replyTime } : {}),
  };
  if (h.state === "taken") {
    return {
      state: "taken",
      ...(h.requestedAt !== null && h.since !== null && h.requestedAt >= h.since ? { requestedAt: h.requestedAt } : {}),
      ...(h.takenAt !== null ? { takenAt: h.takenAt } : {}),
      ...(h.agent ? { agent: h.agent } : {}),
      ...(emailLeft ? { emailLeft } : {}),
      ...texts,
    };
  }
  const requestedAt = h.requestedAt ?? h.since ?? 0;
  const askEmail = !row.visitorSub && !emailLeft;
  return {
    state: "requested",
    requestedAt,
    ...(askEmail ? { askEmailAt: requestedAt + settings.emailAfterMinutes * 60_000 } : {}),
    ...(emailLeft ? { emailLeft } : {}),
    ...texts,
  };
}

/** Whether a session ever had a handoff (the widget and the history show `handoff` then). */
export const everHandedOff = (row: Pick<VisitorSessionRow, "handoff">) => {
  const h = handoffOf(row);
  return h.state !== "none" || h.since !== null || Boolean(h.contactEmail);
};

export type HandoffChange = { changed: boolean; session: SessionRow };

export class HandoffStore {
  constructor(
    private readonly storage: SqlHost,
    private readonly visitors: VisitorStore,
  ) {}

  private get sql() {
    return this.storage.sql;
  }

  private reread(sessionId: string): SessionRow {
    return this.visitors.session(sessionId)!;
  }

  /** The assistant offered a person in this session (the visitor may then ask even if the action is turned off later). */
  markOffered(sessionId: string, now: number) {
    this.sql.exec("UPDATE visitor_sessions SET handoff_offered_at = ? WHERE id = ?", now, sessionId);
  }

  /**
   * The visitor asks for a person (again with `email`: the address for the reply). From `none` a
   * new episode starts (`changed`); `requested` or `taken` stay as they are.
   */
  request(session: SessionRow, input: { email?: string | undefined; now: number }): HandoffChange {
    const h = handoffOf(session);
    const changed = h.state === "none";
    this.storage.transactionSync(() => {
      if (changed) {
        this.sql.exec(
          "UPDATE visitor_sessions SET handoff_state = 'requested', handoff_since = ?, handoff_requested_at = ?, handoff_taken_at = NULL, handoff_first_reply_at = NULL WHERE id = ?",
          input.now,
          input.now,
          session.id,
        );
      }
      if (input.email) this.sql.exec("UPDATE visitor_sessions SET contact_email = ? WHERE id = ?", input.email, session.id);
    });
    return { changed, session: this.reread(session.id) };
  }

  /** The address for a person's reply, left another way than POST …/handoff (a lead's e-mail while a person was asked for). */
  leaveEmail(session: SessionRow, email: string): HandoffChange {
    if (handoffOf(session).contactEmail === email) return { changed: false, session };
    this.sql.exec("UPDATE visitor_sessions SET contact_email = ? WHERE id = ?", email, session.id);
    return { changed: true, session: this.reread(session.id) };
  }

  /** The visitor goes back to the assistant while nobody took the conversation; `taken` stays. */
  cancel(session: SessionRow): HandoffChange {
    if (handoffOf(session).state !== "requested") return { changed: false, session };
    this.sql.exec("UPDATE visitor_sessions SET handoff_state = 'none' WHERE id = ?", session.id);
    return { changed: true, session: this.reread(session.id) };
  }

  /**
   * The owner takes the conversation (from `none` or `requested`): the assistant pauses for it.
   * Taking it again renews the person's name and photo. `fresh`: a takeover without a request
   * starts a new episode.
   */
  takeOver(session: SessionRow, agent: { author: AgentAuthor; userId: string }, now: number): HandoffChange & { fresh: boolean } {
    const h = handoffOf(session);
    const fresh = h.state === "none";
    this.sql.exec(
      `UPDATE visitor_sessions SET handoff_state = 'taken', agent_author = ?, agent_user_id = ?,
         handoff_taken_at = CASE WHEN handoff_state = 'taken' THEN handoff_taken_at ELSE ? END,
         handoff_active_at = CASE WHEN handoff_state = 'taken' THEN handoff_active_at ELSE ? END,
         handoff_since = CASE WHEN handoff_state = 'none' THEN ? ELSE handoff_since END,
         handoff_first_reply_at = CASE WHEN handoff_state = 'none' THEN NULL ELSE handoff_first_reply_at END
       WHERE id = ?`,
      JSON.stringify(agent.author),
      agent.userId,
      now,
      now,
      now,
      session.id,
    );
    return { changed: h.state !== "taken", fresh, session: this.reread(session.id) };
  }

  /** Back to the assistant (handed back, or ended): from `requested` or `taken`. */
  end(session: SessionRow): HandoffChange {
    if (handoffOf(session).state === "none") return { changed: false, session };
    this.sql.exec("UPDATE visitor_sessions SET handoff_state = 'none', agent_author = NULL, agent_user_id = NULL WHERE id = ?", session.id);
    return { changed: true, session: this.reread(session.id) };
  }

  /**
   * The visitor's messages in a row this episode: since it began (the request or the takeover) and
   * since the person's last message. Bounds what a visitor can send while nobody answers.
   */
  unanswered(session: SessionRow): number {
    const since = handoffOf(session).since ?? 0;
    return num(
      this.sql
        .exec(
          `SELECT count(*) AS n FROM visitor_messages WHERE session_id = ? AND role = 'user' AND created_at >= ?
             AND created_at > coalesce((SELECT max(created_at) FROM visitor_messages WHERE session_id = ? AND role = 'agent'), 0)`,
          session.id,
          since,
          session.id,
        )
        .one().n,
    );
  }

  /** A message of either side while a person has it: the idle end counts from it. */
  touch(sessionId: string, now: number) {
    this.sql.exec("UPDATE visitor_sessions SET handoff_active_at = ? WHERE id = ? AND handoff_state = 'taken'", now, sessionId);
  }

  /**
   * After a person's message: the activity, and the episode's first reply (its time from the
   * episode's start, for Insights' median). Returns that duration when this was the first reply.
   */
  replied(session: SessionRow, now: number): number | null {
    const h = handoffOf(session);
    this.touch(session.id, now);
    if (h.firstReplyAt !== null) return null;
    this.sql.exec("UPDATE visitor_sessions SET handoff_first_reply_at = ? WHERE id = ?", now, session.id);
    return Math.max(0, now - (h.since ?? h.takenAt ?? now));
  }

  /**
   * Reserves the e-mail to the owner when none went for this conversation within the interval, and
   * fewer than handoffLimits.maxOwnerEmailsPerHour went for the assistant's conversations in the
   * last hour (many sessions asking at once send the owner a few e-mails, not one each): true when one may go now.
   */
  reserveOwnerEmail(session: SessionRow, now: number): boolean {
    const last = handoffOf(session).ownerEmailedAt;
    if (last !== null && now - last < handoffLimits.emailIntervalMs) return false;
    const lastHour = num(this.sql.exec("SELECT count(*) AS n FROM visitor_sessions WHERE owner_emailed_at > ?", now - 60 * 60_000).one().n);
    if (lastHour >= handoffLimits.maxOwnerEmailsPerHour) return false;
    this.sql.exec("UPDATE visitor_sessions SET owner_emailed_at = ? WHERE id = ?", now, session.id);
    return true;
  }

  /** The same for the e-mail to the visitor (a person replied while they were away). */
  reserveVisitorEmail(session: SessionRow, now: number): boolean {
    const last = handoffOf(session).visitorEmailedAt;
    if (last !== null && now - last < handoffLimits.emailIntervalMs) return false;
    this.sql.exec("UPDATE visitor_sessions SET visitor_emailed_at = ? WHERE id = ?", now, session.id);
    return true;
  }

  /** The owner opened the conversation: its unread count goes back to 0. */
  markRead(sessionId: string, now: number) {
    this.sql.exec("UPDATE visitor_sessions SET owner_read_at = max(owner_read_at, ?) WHERE id = ?", now, sessionId);
  }

  /** The taken conversations with no message of either side since `before` (the idle end), at most `limit`. */
  idle(before: number, limit = 200): SessionRow[] {
    return this.sql
      .exec("SELECT id FROM visitor_sessions WHERE handoff_state = 'taken' AND coalesce(handoff_active_at, 0) <= ? LIMIT ?", before, limit)
      .toArray()
      .map((r) => this.reread(String(r.id)));
  }

  /** The earliest last activity of a taken conversation (the idle alarm's next time), or null. */
  oldestActivity(): number | null {
    const [r] = this.sql.exec("SELECT min(coalesce(handoff_active_at, 0)) AS at FROM visitor_sessions WHERE handoff_state = 'taken'").toArray();
    return r && r.at !== null ? num(r.at) : null;
  }

  /** Every conversation a person has or was asked for (a revocation ends them), at most `limit`. */
  handedOff(limit = 1000): SessionRow[] {
    return this.sql
      .exec("SELECT id FROM visitor_sessions WHERE handoff_state != 'none' LIMIT ?", limit)
      .toArray()
      .map((r) => this.reread(String(r.id)));
  }

  // ── The owner's inbox ─────────────────────────────────────────────────────────────────────────

  /**
   * A page of the inbox, latest activity first: conversations with a message or a handoff
   * (`needs-person`: requested; `with-person`: taken; `live`: among `live`, the sessions with a
   * socket or event stream open), and the counts over the open sessions.
   */
  inbox(input: { filter: InboxFilter; page: number; live: ReadonlySet<string>; settings: HandoffSettings; now: number }) {
    const size = handoffLimits.inboxPageSize;
    const liveJson = JSON.stringify([...input.live]);
    const where = {
      "needs-person": ["handoff_state = 'requested'", []],
      "with-person": ["handoff_state = 'taken'", []],
      live: ["id IN (SELECT value FROM json_each(?)) AND (message_count > 0 OR handoff_state != 'none')", [liveJson]],
      all: ["(message_count > 0 OR handoff_state != 'none')", []],
    }[input.filter] as [string, SqlStorageValue[]];
    const total = num(this.sql.exec(`SELECT count(*) AS n FROM visitor_sessions WHERE ${where[0]}`, ...where[1]).one().n);
    const ids = this.sql
      .exec(`SELECT id FROM visitor_sessions WHERE ${where[0]} ORDER BY coalesce(last_message_at, started_at) DESC, id DESC LIMIT ? OFFSET ?`, ...where[1], size, (input.page - 1) * size)
      .toArray()
      .map((r) => String(r.id));
    const conversations = ids.map((id) => this.conversation(this.reread(id), input.live.has(id), input.settings));
    return { conversations, total, page: input.page, totalPages: Math.max(1, Math.ceil(total / size)), counts: this.counts(input.live, input.now) };
  }

  /** The inbox's counts: requested, taken, live, and the visitor messages not read in open sessions. */
  counts(live: ReadonlySet<string>, now: number): InboxCounts {
    const states = this.sql.exec("SELECT handoff_state AS s, count(*) AS n FROM visitor_sessions WHERE handoff_state != 'none' GROUP BY handoff_state").toArray();
    const byState = new Map(states.map((r) => [String(r.s), num(r.n)]));
    const liveCount = live.size
      ? num(this.sql.exec("SELECT count(*) AS n FROM visitor_sessions WHERE id IN (SELECT value FROM json_each(?)) AND (message_count > 0 OR handoff_state != 'none')", JSON.stringify([...live])).one().n)
      : 0;
    const unread = num(
      this.sql
        .exec(
          `SELECT count(*) AS n FROM visitor_sessions s JOIN visitor_messages m ON m.session_id = s.id
           WHERE s.started_at > ? AND coalesce(s.last_message_at, 0) > s.owner_read_at AND m.role = 'user' AND m.created_at > s.owner_read_at`,
          now - widget.sessionCounterWindowMs,
        )
        .one().n,
    );
    return { needsPerson: byState.get("requested") ?? 0, withPerson: byState.get("taken") ?? 0, live: liveCount, unread };
  }

  /** One conversation's inbox row (its first question, last message, unread count, handoff, visitor). */
  conversation(row: SessionRow, live: boolean, settings: HandoffSettings): InboxConversation {
    const h = handoffOf(row);
    const [first] = this.sql.exec("SELECT content FROM visitor_messages WHERE session_id = ? AND role = 'user' ORDER BY created_at, id LIMIT 1", row.id).toArray();
    const [last] = this.sql.exec("SELECT content, role FROM visitor_messages WHERE session_id = ? ORDER BY created_at DESC, id DESC LIMIT 1", row.id).toArray();
    const unread = num(
      this.sql.exec("SELECT count(*) AS n FROM visitor_messages WHERE session_id = ? AND role = 'user' AND created_at > ?", row.id, h.ownerReadAt).one().n,
    );
    const visitor = sessionVisitor(row);
    const role = last?.role;
    return {
      sessionId: row.id,
      title: first ? preview(String(first.content), insightsLimits.maxQuestionChars) : handoffMessages.untitledConversation,
      preview: last ? preview(String(last.content), PREVIEW_CHARS) : "",
      ...(role === "user" || role === "assistant" || role === "agent" ? { previewRole: role } : {}),
      lastMessageAt: row.lastMessageAt ?? null,
      messageCount: row.messageCount,
      unread,
      live,
      handoff: conversationHandoff(row, settings),
      ...(visitor ? { visitor } : {}),
      ...(row.locale ? { locale: row.locale } : {}),
      ...(row.referrer ? { referrer: row.referrer } : {}),
      ...(h.contactEmail ? { contactEmail: h.contactEmail } : {}),
    };
  }

  /** Needs a person, and unread visitor messages (the navigation's badge for this assistant). */
  summary(now: number): { needsPerson: number; unread: number } {
    const c = this.counts(new Set(), now);
    return { needsPerson: c.needsPerson, unread: c.unread };
  }
}

/** A person's display: the name, its initials (at most two letters), and a photo at an https address. */
export function agentAuthor(input: { firstName?: string | null; lastName?: string | null; email?: string | null; photoUrl?: string | null }): AgentAuthor {
  const name = [input.firstName, input.lastName].map((s) => (s ?? "").trim()).filter(Boolean).join(" ") || (input.email ?? "").split("@")[0]?.trim() || handoffMessages.agentFallbackName;
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => [...w][0]!.toUpperCase())
      .join("") || "?";
  const photo = input.photoUrl?.trim();
  return { name: name.slice(0, 80), initials, ...(photo && /^https:\/\/[^\s"'<>]+$/i.test(photo) && photo.length <= 2048 ? { photoUrl: photo } : {}) };
}
