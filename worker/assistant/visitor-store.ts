import { insightsLimits, widget, type AgentAuthor, type FeedbackRating, type HandoffState, type VerifiedVisitor, type VisitorConversationsResponse, type WidgetRemaining, type WidgetSource } from "../../contract";
import type { visitorMessages, visitorSessions } from "../db/schema";
import type { Admission } from "../services/widget/widget-limits";
import { networkDailyShare } from "../services/widget/widget-limits";
import type { RateLimitResult } from "../services/rate-limit-window";

/**
 * An assistant's visitor sessions, messages and message counters in its own Durable Object's
 * SQLite (AssistantHub). Every function is synchronous: SQLite in a Durable Object is local, and
 * a check-and-increment with no await in between is exact under any concurrency (the object runs
 * one event at a time). Rows keep the shape of the legacy D1 tables (`VisitorSessionRow`,
 * `VisitorMessageRow`), so the contract mappers (toVisitorSession, toWidgetMessage) read both.
 * No import from `cloudflare:workers`.
 */

/**
 * A stored session; `visitorSub`/`visitorName`/`visitorEmail`: the verified visitor it belongs to
 * (migration 0007), null for an anonymous one (absent on legacy D1 rows).
 */
export type VisitorSessionRow = typeof visitorSessions.$inferSelect & {
  visitorSub?: string | null;
  visitorName?: string | null;
  visitorEmail?: string | null;
  /** A person taking over (migration 0015, handoff-store.ts); absent on legacy D1 rows. */
  handoff?: SessionHandoffRow;
};

/** A session's handoff columns (0015_handoff): its state, times, the person, the address the visitor left. */
export interface SessionHandoffRow {
  state: HandoffState;
  /** When the current episode began (a request, or a takeover without one): the first reply's time counts from it. */
  since: number | null;
  requestedAt: number | null;
  takenAt: number | null;
  /** The last message of either side while taken (the idle end counts from it). */
  activeAt: number | null;
  firstReplyAt: number | null;
  /** When the assistant offered a person (the visitor may ask even if the owner turned the action off since). */
  offeredAt: number | null;
  agent: AgentAuthor | null;
  agentUserId: string | null;
  contactEmail: string | null;
  ownerReadAt: number;
  ownerEmailedAt: number | null;
  visitorEmailedAt: number | null;
}

/**
 * A stored message; `rating`: the visitor's rating of an answer (insights-store.ts), when given;
 * `author`: a person's message (role "agent"); `offersHandoff`: the assistant offered a person.
 */
export type VisitorMessageRow = Omit<typeof visitorMessages.$inferSelect, "role"> & {
  role: "user" | "assistant" | "agent";
  rating?: FeedbackRating;
  author?: AgentAuthor;
  offersHandoff?: boolean;
  /** The reply offered the lead form (0016_leads), and why (column offers_lead_form: 1 the knowledge had nothing, 2 the visitor asked to be contacted). */
  offersLeadForm?: boolean;
  leadTrigger?: "asked" | "unanswered";
};
type Row = Record<string, SqlStorageValue>;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The UTC day of `now` (days since the epoch) and when it ends. */
export const utcDay = (now: number) => Math.floor(now / DAY_MS);
const dayEnd = (day: number) => (day + 1) * DAY_MS;

export const isSessionOpen = (row: Pick<VisitorSessionRow, "startedAt">, now = Date.now()) => now - row.startedAt < widget.sessionCounterWindowMs;

const num = (v: SqlStorageValue | undefined) => Number(v ?? 0);
const str = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? "" : String(v));
const numOrNull = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? null : String(v));

/** A stored author (JSON written by the hub); null when absent or not one. */
export function parseAuthor(v: SqlStorageValue | undefined): AgentAuthor | null {
  if (typeof v !== "string" || !v) return null;
  try {
    const a = JSON.parse(v) as Partial<AgentAuthor>;
    if (typeof a.name !== "string" || typeof a.initials !== "string") return null;
    return { name: a.name, initials: a.initials, ...(typeof a.photoUrl === "string" ? { photoUrl: a.photoUrl } : {}) };
  } catch {
    return null;
  }
}

function toHandoffRow(r: Row): SessionHandoffRow {
  const state = r.handoff_state === "requested" || r.handoff_state === "taken" ? r.handoff_state : "none";
  return {
    state,
    since: numOrNull(r.handoff_since),
    requestedAt: numOrNull(r.handoff_requested_at),
    takenAt: numOrNull(r.handoff_taken_at),
    activeAt: numOrNull(r.handoff_active_at),
    firstReplyAt: numOrNull(r.handoff_first_reply_at),
    offeredAt: numOrNull(r.handoff_offered_at),
    agent: parseAuthor(r.agent_author),
    agentUserId: strOrNull(r.agent_user_id),
    contactEmail: strOrNull(r.contact_email),
    ownerReadAt: num(r.owner_read_at),
    ownerEmailedAt: numOrNull(r.owner_emailed_at),
    visitorEmailedAt: numOrNull(r.visitor_emailed_at),
  };
}

function toSessionRow(r: Row, assistantId: string): VisitorSessionRow & { counted: number } {
  return {
    id: str(r.id),
    assistantId,
    referrer: str(r.referrer),
    origin: str(r.origin),
    userAgent: str(r.user_agent),
    locale: str(r.locale),
    messageCount: num(r.message_count),
    startedAt: num(r.started_at),
    lastMessageAt: r.last_message_at === null ? null : num(r.last_message_at),
    counted: num(r.counted),
    visitorSub: r.visitor_sub === null || r.visitor_sub === undefined ? null : String(r.visitor_sub),
    visitorName: r.visitor_name === null || r.visitor_name === undefined ? null : String(r.visitor_name),
    visitorEmail: r.visitor_email === null || r.visitor_email === undefined ? null : String(r.visitor_email),
    handoff: toHandoffRow(r),
  };
}

/** The verified visitor of a session row, or undefined for an anonymous one. */
export function sessionVisitor(row: Pick<VisitorSessionRow, "visitorSub" | "visitorName" | "visitorEmail">): VerifiedVisitor | undefined {
  if (!row.visitorSub) return undefined;
  return { id: row.visitorSub, ...(row.visitorName ? { name: row.visitorName } : {}), ...(row.visitorEmail ? { email: row.visitorEmail } : {}) };
}

function toMessageRow(r: Row): VisitorMessageRow {
  const role = r.role === "assistant" || r.role === "agent" ? r.role : "user";
  const author = role === "agent" ? parseAuthor(r.author) : null;
  return {
    id: str(r.id),
    sessionId: str(r.session_id),
    role,
    contentType: str(r.content_type) || "text",
    content: str(r.content),
    files: str(r.files) || "[]",
    sources: str(r.sources) || "[]",
    createdAt: num(r.created_at),
    ...(r.rating === "up" || r.rating === "down" ? { rating: r.rating } : {}),
    ...(author ? { author } : {}),
    ...(r.offers_handoff ? { offersHandoff: true } : {}),
    ...(r.offers_lead_form ? { offersLeadForm: true, leadTrigger: r.offers_lead_form === 2 ? ("asked" as const) : ("unanswered" as const) } : {}),
  };
}

export class VisitorStore {
  /** The UTC day this instance last pruned the per-day counters for: once a day, not once a message. */
  private prunedDay = -1;

  constructor(
    private readonly storage: Pick<DurableObjectStorage, "sql" | "transactionSync">,
    private readonly assistantId: string,
  ) {}

  private get sql() {
    return this.storage.sql;
  }

  /** The session with this id, open or not, or null. */
  session(sessionId: string): (VisitorSessionRow & { counted: number }) | null {
    const [r] = this.sql.exec("SELECT * FROM visitor_sessions WHERE id = ?", sessionId).toArray();
    return r ? toSessionRow(r, this.assistantId) : null;
  }

  /** The open session with this id, or null (unknown or closed: older than the counter's window). */
  openSession(sessionId: string, now = Date.now()) {
    const row = this.session(sessionId);
    return row && isSessionOpen(row, now) ? row : null;
  }

  /** A new session; with `visitor`, a verified visitor's (their token's sub, name and e-mail). */
  createSession(row: Omit<VisitorSessionRow, "assistantId" | "messageCount" | "lastMessageAt" | "visitorSub" | "visitorName" | "visitorEmail">, visitor?: VerifiedVisitor) {
    this.sql.exec(
      `INSERT INTO visitor_sessions (id, referrer, origin, user_agent, locale, message_count, started_at, last_message_at, counted, visitor_sub, visitor_name, visitor_email)
       VALUES (?, ?, ?, ?, ?, 0, ?, NULL, 0, ?, ?, ?)`,
      row.id,
      row.referrer,
      row.origin,
      row.userAgent,
      row.locale,
      row.startedAt,
      visitor?.id ?? null,
      visitor?.name ?? null,
      visitor?.email ?? null,
    );
  }

  /** A verified visitor's latest name and e-mail (from the token they resumed with) on their session. */
  updateVisitor(sessionId: string, visitor: VerifiedVisitor) {
    this.sql.exec("UPDATE visitor_sessions SET visitor_name = ?, visitor_email = ? WHERE id = ? AND visitor_sub = ?", visitor.name ?? null, visitor.email ?? null, sessionId, visitor.id);
  }

  /**
   * A verified visitor's open conversations that have a message, newest activity first, at most
   * `limit`: their first question as the title (cut at insightsLimits.maxQuestionChars).
   */
  visitorConversations(sub: string, limit: number, now = Date.now()): VisitorConversationsResponse["conversations"] {
    return this.sql
      .exec(
        `SELECT s.id, s.message_count, coalesce(s.last_message_at, s.started_at) AS last_at,
           (SELECT m.content FROM visitor_messages m WHERE m.session_id = s.id AND m.role = 'user' ORDER BY m.created_at, m.id LIMIT 1) AS title
         FROM visitor_sessions s
         WHERE s.visitor_sub = ? AND s.started_at > ? AND s.message_count > 0
         ORDER BY last_at DESC, s.id DESC LIMIT ?`,
        sub,
        now - widget.sessionCounterWindowMs,
        limit,
      )
      .toArray()
      .map((r) => ({ sessionId: str(r.id), title: str(r.title).slice(0, insightsLimits.maxQuestionChars), lastMessageAt: num(r.last_at), messageCount: num(r.message_count) }));
  }

  /** The session's messages, oldest first (all of them, or the last `limit`). */
  messages(sessionId: string, limit?: number): VisitorMessageRow[] {
    if (limit === undefined) {
      return this.sql.exec("SELECT * FROM visitor_messages WHERE session_id = ? ORDER BY created_at, id", sessionId).toArray().map(toMessageRow);
    }
    return this.sql
      .exec("SELECT * FROM visitor_messages WHERE session_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", sessionId, limit)
      .toArray()
      .map(toMessageRow)
      .reverse();
  }

  /**
   * Saves one message and moves the session's message_count and last_message_at in one
   * transaction, so the owner's history never shows a message its session does not count.
   */
  saveMessage(input: {
    id?: string;
    sessionId: string;
    role: VisitorMessageRow["role"];
    content: string;
    files: { name: string }[];
    sources: WidgetSource[];
    at: number;
    author?: AgentAuthor;
    offersHandoff?: boolean;
    offersLeadForm?: boolean;
    leadTrigger?: "asked" | "unanswered" | undefined;
  }): VisitorMessageRow {
    const row: VisitorMessageRow = {
      id: input.id ?? crypto.randomUUID(),
      sessionId: input.sessionId,
      role: input.role,
      contentType: "text",
      content: input.content,
      files: JSON.stringify(input.files),
      sources: JSON.stringify(input.sources),
      createdAt: input.at,
      ...(input.author ? { author: input.author } : {}),
      ...(input.offersHandoff ? { offersHandoff: true } : {}),
      ...(input.offersLeadForm ? { offersLeadForm: true, leadTrigger: input.leadTrigger === "asked" ? ("asked" as const) : ("unanswered" as const) } : {}),
    };
    this.storage.transactionSync(() => {
      this.sql.exec(
        "INSERT INTO visitor_messages (id, session_id, role, content_type, content, files, sources, created_at, author, offers_handoff, offers_lead_form) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        row.id,
        row.sessionId,
        row.role,
        row.contentType,
        row.content,
        row.files,
        row.sources,
        row.createdAt,
        input.author ? JSON.stringify(input.author) : null,
        input.offersHandoff ? 1 : 0,
        input.offersLeadForm ? (input.leadTrigger === "asked" ? 2 : 1) : 0,
      );
      this.sql.exec(
        "UPDATE visitor_sessions SET message_count = message_count + 1, last_message_at = max(coalesce(last_message_at, 0), ?) WHERE id = ?",
        row.createdAt,
        row.sessionId,
      );
    });
    return row;
  }

  /**
   * Counts one message against the session's counter (when `sessionId`), the network's share of
   * the UTC day (when `network`) and the assistant's day, in that order, all or nothing: every
   * counter is checked before any is moved, synchronously, so with a limit of L exactly L pass
   * and a refused message takes nothing (no refund needed). Same results as the RateLimiter
   * version it replaces (widget-limits.ts `consumeVisitorMessage`).
   */
  admit(input: { sessionId?: string; network?: string; maxMessagesPerSession: number; dailyLimit: number; userSub?: string | null; now?: number }): Admission {
    const now = input.now ?? Date.now();
    const day = utcDay(now);
    this.pruneDays(day);
    const dailyUsed = this.dailyUsed(day);
    const dailyReset = dayEnd(day);
    const session = input.sessionId ? this.session(input.sessionId) : null;
    const sessionLimit = input.maxMessagesPerSession;
    // Per user (the owner's visitorLimitScope "user"): the messages counted in all the
    // verified visitor's open sessions; the window ends with the oldest of them.
    const counter = session ? this.counterUsed(session, input.userSub, now) : { counted: 0, resetAt: 0 };
    const sessionResult = (counted: number, allowed: boolean): RateLimitResult =>
      session ? { allowed, remaining: Math.max(0, sessionLimit - counted), resetAt: counter.resetAt } : { allowed: true, remaining: Number.MAX_SAFE_INTEGER, resetAt: 0 };
    const daily = (count: number, allowed: boolean): RateLimitResult => ({ allowed, remaining: Math.max(0, input.dailyLimit - count), resetAt: dailyReset });

    if (session && counter.counted + 1 > sessionLimit) return { allowed: false, refusedBy: "session", session: sessionResult(counter.counted, false), daily: null };
    const sessionAfter = session ? counter.counted + 1 : 0;
    if (input.network !== undefined) {
      const share = networkDailyShare(input.dailyLimit);
      const used = this.networkUsed(day, input.network);
      if (used + 1 > share) {
        return {
          allowed: false,
          refusedBy: "network",
          session: sessionResult(counter.counted, true),
          daily: null,
          network: { allowed: false, remaining: Math.max(0, share - used), resetAt: dailyReset },
        };
      }
    }
    if (dailyUsed + 1 > input.dailyLimit) {
      return { allowed: false, refusedBy: "daily", session: sessionResult(counter.counted, true), daily: daily(dailyUsed, false) };
    }
    this.storage.transactionSync(() => {
      if (session) this.sql.exec("UPDATE visitor_sessions SET counted = counted + 1 WHERE id = ?", session.id);
      if (input.network !== undefined) {
        this.sql.exec(
          "INSERT INTO network_daily_counts (day, network, count) VALUES (?, ?, 1) ON CONFLICT (day, network) DO UPDATE SET count = count + 1",
          day,
          input.network,
        );
      }
      this.sql.exec("INSERT INTO daily_counts (day, count) VALUES (?, 1) ON CONFLICT (day) DO UPDATE SET count = count + 1", day);
    });
    return { allowed: true, session: sessionResult(sessionAfter, true), daily: daily(dailyUsed + 1, true) };
  }

  /** Messages left in the session (with `userSub`: the verified visitor's open sessions) and today, without counting one. */
  remaining(input: { sessionId: string; maxMessagesPerSession: number; dailyLimit: number; userSub?: string | null; now?: number }): WidgetRemaining {
    const now = input.now ?? Date.now();
    const day = utcDay(now);
    const session = this.session(input.sessionId);
    return {
      session: Math.max(0, input.maxMessagesPerSession - (session ? this.counterUsed(session, input.userSub, now).counted : 0)),
      daily: Math.max(0, input.dailyLimit - this.dailyUsed(day)),
    };
  }

  /**
   * What the per-session limit has counted: the session's own counter, or, with `userSub` (the
   * session's verified visitor, when the owner counts per user), the sum over that visitor's open
   * sessions (started within the same window as a session's counter).
   */
  private counterUsed(session: VisitorSessionRow & { counted: number }, userSub: string | null | undefined, now: number): { counted: number; resetAt: number } {
    const own = { counted: session.counted, resetAt: session.startedAt + widget.sessionCounterWindowMs };
    if (!userSub || session.visitorSub !== userSub) return own;
    const r = this.sql
      .exec("SELECT coalesce(sum(counted), 0) AS n, min(started_at) AS first FROM visitor_sessions WHERE visitor_sub = ? AND started_at > ?", userSub, now - widget.sessionCounterWindowMs)
      .one();
    return { counted: num(r.n), resetAt: r.first === null ? own.resetAt : num(r.first) + widget.sessionCounterWindowMs };
  }

  /** Sets today's count when the legacy counter knew more (the move from RateLimiter). */
  carryDailyCount(count: number, now = Date.now()) {
    const day = utcDay(now);
    this.sql.exec("INSERT INTO daily_counts (day, count) VALUES (?, ?) ON CONFLICT (day) DO UPDATE SET count = max(count, excluded.count)", day, count);
  }

  private dailyUsed(day: number) {
    const [r] = this.sql.exec("SELECT count FROM daily_counts WHERE day = ?", day).toArray();
    return r ? num(r.count) : 0;
  }

  private networkUsed(day: number, network: string) {
    const [r] = this.sql.exec("SELECT count FROM network_daily_counts WHERE day = ? AND network = ?", day, network).toArray();
    return r ? num(r.count) : 0;
  }

  /** Only today's counters matter: earlier days' rows go (keeps the per-day tables bounded). */
  private pruneDays(day: number) {
    if (day === this.prunedDay) return;
    this.sql.exec("DELETE FROM daily_counts WHERE day < ?", day);
    this.sql.exec("DELETE FROM network_daily_counts WHERE day < ?", day);
    this.prunedDay = day;
  }

  // ── The owner's view ─────────────────────────────────────────────────────────────────────────

  /** How many sessions there are (with `user`: that verified visitor's). */
  countSessions(user?: string): number {
    if (user !== undefined) return num(this.sql.exec("SELECT count(*) AS n FROM visitor_sessions WHERE visitor_sub = ?", user).one().n);
    return num(this.sql.exec("SELECT count(*) AS n FROM visitor_sessions").one().n);
  }

  /** A page of sessions (with `user`: that verified visitor's only), newest activity first. */
  sessionsByActivity(page: number, limit: number, user?: string): VisitorSessionRow[] {
    const order = "ORDER BY coalesce(last_message_at, started_at) DESC, id DESC LIMIT ? OFFSET ?";
    const rows =
      user !== undefined
        ? this.sql.exec(`SELECT * FROM visitor_sessions WHERE visitor_sub = ? ${order}`, user, limit, (page - 1) * limit)
        : this.sql.exec(`SELECT * FROM visitor_sessions ${order}`, limit, (page - 1) * limit);
    return rows.toArray().map((r) => toSessionRow(r, this.assistantId));
  }

  /** Sessions oldest first after the cursor (startedAt, id): the export's pages. */
  sessionsAfter(after: { startedAt: number; id: string } | null, limit: number): VisitorSessionRow[] {
    const rows = after
      ? this.sql.exec(
          "SELECT * FROM visitor_sessions WHERE started_at > ? OR (started_at = ? AND id > ?) ORDER BY started_at, id LIMIT ?",
          after.startedAt,
          after.startedAt,
          after.id,
          limit,
        )
      : this.sql.exec("SELECT * FROM visitor_sessions ORDER BY started_at, id LIMIT ?", limit);
    return rows.toArray().map((r) => toSessionRow(r, this.assistantId));
  }

  /** Every message of these sessions, oldest first, grouped by session. */
  messagesOf(sessionIds: readonly string[]): Map<string, VisitorMessageRow[]> {
    const out = new Map<string, VisitorMessageRow[]>();
    for (const id of sessionIds) out.set(id, this.messages(id));
    return out;
  }
}
