import { widget, type FeedbackRating, type WidgetRemaining, type WidgetSource } from "../../contract";
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

export type VisitorSessionRow = typeof visitorSessions.$inferSelect;
/** A stored message; `rating`: the visitor's rating of an answer (insights-store.ts), when given. */
export type VisitorMessageRow = typeof visitorMessages.$inferSelect & { rating?: FeedbackRating };
type Row = Record<string, SqlStorageValue>;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The UTC day of `now` (days since the epoch) and when it ends. */
export const utcDay = (now: number) => Math.floor(now / DAY_MS);
const dayEnd = (day: number) => (day + 1) * DAY_MS;

export const isSessionOpen = (row: Pick<VisitorSessionRow, "startedAt">, now = Date.now()) => now - row.startedAt < widget.sessionCounterWindowMs;

const num = (v: SqlStorageValue | undefined) => Number(v ?? 0);
const str = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? "" : String(v));

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
  };
}

function toMessageRow(r: Row): VisitorMessageRow {
  return {
    id: str(r.id),
    sessionId: str(r.session_id),
    role: str(r.role) === "assistant" ? "assistant" : "user",
    contentType: str(r.content_type) || "text",
    content: str(r.content),
    files: str(r.files) || "[]",
    sources: str(r.sources) || "[]",
    createdAt: num(r.created_at),
    ...(r.rating === "up" || r.rating === "down" ? { rating: r.rating } : {}),
  };
}

export class VisitorStore {
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

  createSession(row: Omit<VisitorSessionRow, "assistantId" | "messageCount" | "lastMessageAt">) {
    this.sql.exec(
      `INSERT INTO visitor_sessions (id, referrer, origin, user_agent, locale, message_count, started_at, last_message_at, counted)
       VALUES (?, ?, ?, ?, ?, 0, ?, NULL, 0)`,
      row.id,
      row.referrer,
      row.origin,
      row.userAgent,
      row.locale,
      row.startedAt,
    );
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
  saveMessage(input: { id?: string; sessionId: string; role: "user" | "assistant"; content: string; files: { name: string }[]; sources: WidgetSource[]; at: number }): VisitorMessageRow {
    const row: VisitorMessageRow = {
      id: input.id ?? crypto.randomUUID(),
      sessionId: input.sessionId,
      role: input.role,
      contentType: "text",
      content: input.content,
      files: JSON.stringify(input.files),
      sources: JSON.stringify(input.sources),
      createdAt: input.at,
    };
    this.storage.transactionSync(() => {
      this.sql.exec(
        "INSERT INTO visitor_messages (id, session_id, role, content_type, content, files, sources, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        row.id,
        row.sessionId,
        row.role,
        row.contentType,
        row.content,
        row.files,
        row.sources,
        row.createdAt,
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
  admit(input: { sessionId?: string; network?: string; maxMessagesPerSession: number; dailyLimit: number; now?: number }): Admission {
    const now = input.now ?? Date.now();
    const day = utcDay(now);
    this.pruneDays(day);
    const dailyUsed = this.dailyUsed(day);
    const dailyReset = dayEnd(day);
    const session = input.sessionId ? this.session(input.sessionId) : null;
    const sessionLimit = input.maxMessagesPerSession;
    const sessionResult = (used: number, allowed: boolean): RateLimitResult =>
      session
        ? { allowed, remaining: Math.max(0, sessionLimit - used), resetAt: session.startedAt + widget.sessionCounterWindowMs }
        : { allowed: true, remaining: Number.MAX_SAFE_INTEGER, resetAt: 0 };
    const daily = (used: number, allowed: boolean): RateLimitResult => ({ allowed, remaining: Math.max(0, input.dailyLimit - used), resetAt: dailyReset });

    if (session && session.counted + 1 > sessionLimit) return { allowed: false, refusedBy: "session", session: sessionResult(session.counted, false), daily: null };
    const sessionAfter = session ? session.counted + 1 : 0;
    if (input.network !== undefined) {
      const share = networkDailyShare(input.dailyLimit);
      const used = this.networkUsed(day, input.network);
      if (used + 1 > share) {
        return {
          allowed: false,
          refusedBy: "network",
          session: sessionResult(session?.counted ?? 0, true),
          daily: null,
          network: { allowed: false, remaining: Math.max(0, share - used), resetAt: dailyReset },
        };
      }
    }
    if (dailyUsed + 1 > input.dailyLimit) {
      return { allowed: false, refusedBy: "daily", session: sessionResult(session?.counted ?? 0, true), daily: daily(dailyUsed, false) };
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

  /** Messages left in the session and today, without counting one. */
  remaining(input: { sessionId: string; maxMessagesPerSession: number; dailyLimit: number; now?: number }): WidgetRemaining {
    const day = utcDay(input.now ?? Date.now());
    const session = this.session(input.sessionId);
    return {
      session: Math.max(0, input.maxMessagesPerSession - (session?.counted ?? 0)),
      daily: Math.max(0, input.dailyLimit - this.dailyUsed(day)),
    };
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
    this.sql.exec("DELETE FROM daily_counts WHERE day < ?", day);
    this.sql.exec("DELETE FROM network_daily_counts WHERE day < ?", day);
  }

  // ── The owner's view ─────────────────────────────────────────────────────────────────────────

  countSessions(): number {
    return num(this.sql.exec("SELECT count(*) AS n FROM visitor_sessions").one().n);
  }

  /** A page of sessions, newest activity first. */
  sessionsByActivity(page: number, limit: number): VisitorSessionRow[] {
    return this.sql
      .exec("SELECT * FROM visitor_sessions ORDER BY coalesce(last_message_at, started_at) DESC, id DESC LIMIT ? OFFSET ?", limit, (page - 1) * limit)
      .toArray()
      .map((r) => toSessionRow(r, this.assistantId));
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

  /** How many sessions and messages are stored (tests and the owner's debug view). */
  footprint() {
    return {
      sessions: this.countSessions(),
      messages: num(this.sql.exec("SELECT count(*) AS n FROM visitor_messages").one().n),
    };
  }
}
