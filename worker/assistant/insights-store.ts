import { insightsLimits, type FeedbackRating, type InsightQuestion, type InsightsResponse, type RatedAnswer } from "../../contract";
import { countedQuestion, groupQuestions, sessionIdList, withSession } from "./insight-question";
import { utcDay } from "./visitor-store";

/**
 * The owner's insights in an assistant's own Durable Object (AssistantHub, SQLite; tables of the
 * migration `0005_insights`): visitors' messages and conversations per UTC day, the questions they
 * asked (per day, and whether retrieval found nothing: a gap), and their ratings of answers (on the
 * answer's own row). Counted where the turn already writes, synchronously, so the counts are exact
 * under any concurrency (the object runs one event at a time) and cost a turn no extra call.
 *
 * Bounded: at most `maxTrackedQuestions` distinct questions (past it the least asked, then the
 * oldest, are forgotten with their day rows) and `daysKept` days of rows (older ones are pruned on
 * the first count of each new day). No import from `cloudflare:workers`.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
type Row = Record<string, SqlStorageValue>;
type SqlHost = Pick<DurableObjectStorage, "sql" | "transactionSync">;

const num = (v: SqlStorageValue | undefined) => Number(v ?? 0);
const str = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? "" : String(v));
const isRating = (v: SqlStorageValue | undefined): v is FeedbackRating => v === "up" || v === "down";
/** `YYYY-MM-DD` of a UTC day number. */
export const dayDate = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The start of a text for a list: spaces collapsed, at most `max` characters, "…" when cut. */
export function preview(text: string, max: number): string {
  const flat = text.slice(0, max * 4).replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** The median of sorted `values` (the mean of the middle two for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const mid = Math.floor(values.length / 2);
  return values.length % 2 ? values[mid]! : Math.round((values[mid - 1]! + values[mid]!) / 2);
}

export interface InsightsStoreLimits {
  maxTrackedQuestions: number;
  daysKept: number;
}

export type RateOutcome = "rated" | "not-found" | "not-answer";

export class InsightsStore {
  constructor(
    private readonly storage: SqlHost,
    private readonly limits: InsightsStoreLimits = insightsLimits,
  ) {}

  private get sql() {
    return this.storage.sql;
  }

  // ── Counting (inside a visitor turn) ─────────────────────────────────────────────────────────

  /**
   * A visitor's message was saved (call in the same synchronous step as the save): one message on
   * its UTC day, and one conversation when it is the first message of its session.
   */
  countVisitorMessage(at: number, firstOfSession: boolean): void {
    this.addToDay(utcDay(at), firstOfSession ? 1 : 0, 1);
  }

  /** A reply a curated answer gave (`exact`) or guided (`guide`), on its day (its row exists: the visitor's message made it). */
  countCurated(at: number, mode: "exact" | "guide"): void {
    const column = mode === "exact" ? "curated_exact" : "curated_guided";
    this.sql.exec(`UPDATE insight_days SET ${column} = ${column} + 1 WHERE day = ?`, utcDay(at));
  }

  /** A handoff a visitor requested, or a takeover, on its day (0015_handoff). */
  countHandoff(at: number, kind: "requested" | "taken"): void {
    const column = kind === "requested" ? "handoffs_requested" : "handoffs_taken";
    const day = utcDay(at);
    const updated = this.sql.exec(`UPDATE insight_days SET ${column} = ${column} + 1 WHERE day = ? RETURNING day`, day).toArray();
    if (updated.length) return;
    this.sql.exec(`INSERT INTO insight_days (day, conversations, messages, ${column}) VALUES (?, 0, 0, 1)`, day);
    this.prune(utcDay(Date.now()));
  }

  /** A lead a visitor left, on its day (0016_leads). */
  countLead(at: number): void {
    const day = utcDay(at);
    const updated = this.sql.exec("UPDATE insight_days SET leads = leads + 1 WHERE day = ? RETURNING day", day).toArray();
    if (updated.length) return;
    this.sql.exec("INSERT INTO insight_days (day, conversations, messages, leads) VALUES (?, 0, 0, 1)", day);
    this.prune(utcDay(Date.now()));
  }

  /** A person's first reply of a handoff, `ms` after its request (or the takeover without one), on its day. */
  countFirstReply(at: number, sessionId: string, ms: number): void {
    this.sql.exec("INSERT INTO insight_first_replies (day, session_id, ms) VALUES (?, ?, ?) ON CONFLICT (day, session_id) DO NOTHING", utcDay(at), sessionId, Math.round(ms));
  }

  /**
   * Sessions moved in from the legacy D1 tables (legacy-import.ts), counted as the migration's
   * backfill counts stored ones: each visitor message on its day, the session on its first's.
   */
  countImportedSession(visitorMessageTimes: readonly number[]): void {
    if (!visitorMessageTimes.length) return;
    const perDay = new Map<number, number>();
    for (const at of visitorMessageTimes) perDay.set(utcDay(at), (perDay.get(utcDay(at)) ?? 0) + 1);
    const first = utcDay(visitorMessageTimes.reduce((a, b) => Math.min(a, b)));
    for (const [day, messages] of perDay) this.addToDay(day, day === first ? 1 : 0, messages);
  }

  /**
   * The question of a visitor's message once retrieval ran: counted on its day under its
   * normalised text (insight-question.ts), with the visitor's latest wording and this session
   * first among its conversations; `gap` when retrieval found nothing (not when it failed).
   */
  countQuestion(input: { text: string; sessionId: string; at: number; gap: boolean }): void {
    const question = countedQuestion(input.text);
    if (!question) return;
    const gap = input.gap ? 1 : 0;
    this.storage.transactionSync(() => {
      const [row] = this.sql.exec("SELECT id, session_ids, gap_session_ids FROM insight_questions WHERE normalized = ?", question.normalized).toArray();
      let id: number;
      if (row) {
        id = num(row.id);
        const gapSessions = gap ? JSON.stringify(withSession(sessionIdList(row.gap_session_ids), input.sessionId)) : str(row.gap_session_ids);
        this.sql.exec(
          `UPDATE insight_questions SET wording = ?, asked = asked + 1, last_asked_at = max(last_asked_at, ?),
             last_gap_at = CASE WHEN ? THEN ? ELSE last_gap_at END, last_was_gap = ?, session_ids = ?, gap_session_ids = ? WHERE id = ?`,
          question.wording,
          input.at,
          gap,
          input.at,
          gap,
          JSON.stringify(withSession(sessionIdList(row.session_ids), input.sessionId)),
          gapSessions,
          id,
        );
      } else {
        this.makeRoomForOneQuestion();
        const sessions = JSON.stringify([input.sessionId]);
        id = num(
          this.sql
            .exec(
              `INSERT INTO insight_questions (normalized, wording, asked, last_asked_at, last_gap_at, last_was_gap, session_ids, gap_session_ids)
               VALUES (?, ?, 1, ?, ?, ?, ?, ?) RETURNING id`,
              question.normalized,
              question.wording,
              input.at,
              gap ? input.at : null,
              gap,
              sessions,
              gap ? sessions : "[]",
            )
            .one().id,
        );
      }
      this.sql.exec(
        `INSERT INTO insight_question_days (day, question_id, asked, gaps) VALUES (?, ?, 1, ?)
         ON CONFLICT (day, question_id) DO UPDATE SET asked = asked + 1, gaps = gaps + excluded.gaps`,
        utcDay(input.at),
        id,
        gap,
      );
    });
  }

  // ── Ratings ───────────────────────────────────────────────────────────────────────────────────

  /**
   * A visitor's rating of an answer of `sessionId` (the caller checked the session is open): the
   * last rating wins, with its time. `not-found`: no such message in this session (unknown, or
   * another session's); `not-answer`: the visitor's own message.
   */
  rate(input: { sessionId: string; messageId: string; rating: FeedbackRating; at: number }): RateOutcome {
    const [row] = this.sql.exec("SELECT role FROM visitor_messages WHERE id = ? AND session_id = ?", input.messageId, input.sessionId).toArray();
    if (!row) return "not-found";
    if (str(row.role) !== "assistant") return "not-answer";
    this.sql.exec("UPDATE visitor_messages SET rating = ?, rated_at = ? WHERE id = ?", input.rating, input.at, input.messageId);
    return "rated";
  }

  // ── The owner's view ──────────────────────────────────────────────────────────────────────────

  /** The insights of the last `days` UTC days up to `now`'s (contract insightsResponse; the hub adds the bot defence's counts). */
  insights(period: number, now = Date.now()): Omit<InsightsResponse, "defence"> {
    // The route allows insightsLimits.periods only; whatever a caller passes stays within the days kept.
    const days = Math.min(this.limits.daysKept, Math.max(1, Math.trunc(period) || 1));
    const today = utcDay(now);
    const first = today - days + 1;
    const since = first * DAY_MS;
    const counted = new Map(
      this.sql
        .exec("SELECT day, conversations, messages FROM insight_days WHERE day >= ? AND day <= ?", first, today)
        .toArray()
        .map((r) => [num(r.day), { conversations: num(r.conversations), messages: num(r.messages) }]),
    );
    const daily = Array.from({ length: days }, (_, i) => ({ date: dayDate(first + i), ...(counted.get(first + i) ?? { conversations: 0, messages: 0 }) }));
    const [curated] = this.sql
      .exec("SELECT coalesce(sum(curated_exact), 0) AS exact, coalesce(sum(curated_guided), 0) AS guided FROM insight_days WHERE day >= ? AND day <= ?", first, today)
      .toArray();
    const handoffs = this.handoffs(first, days);
    const feedback = { up: 0, down: 0 };
    for (const r of this.sql.exec("SELECT rating, count(*) AS n FROM visitor_messages WHERE rated_at >= ? GROUP BY rating", since).toArray()) {
      if (isRating(r.rating)) feedback[r.rating] = num(r.n);
    }
    return {
      days,
      daily,
      feedback,
      ratedAnswers: this.ratedAnswers(since),
      gaps: this.questions(first, "gaps"),
      topQuestions: this.questions(first, "asked"),
      curatedAnswers: { exact: num(curated?.exact), guided: num(curated?.guided) },
      handoffs,
      leads: this.leads(first, days),
    };
  }

  /** Per day from `first`: the leads visitors left. */
  private leads(first: number, days: number): NonNullable<InsightsResponse["leads"]> {
    const counts = new Map(
      this.sql
        .exec("SELECT day, leads FROM insight_days WHERE day >= ? AND day <= ?", first, first + days - 1)
        .toArray()
        .map((r) => [num(r.day), num(r.leads)]),
    );
    return Array.from({ length: days }, (_, i) => ({ date: dayDate(first + i), count: counts.get(first + i) ?? 0 }));
  }

  /** Per day from `first`: handoffs requested and taken, and the median time to the person's first reply (null: none that day). */
  private handoffs(first: number, days: number): NonNullable<InsightsResponse["handoffs"]> {
    const last = first + days - 1;
    const counts = new Map(
      this.sql
        .exec("SELECT day, handoffs_requested AS r, handoffs_taken AS t FROM insight_days WHERE day >= ? AND day <= ?", first, last)
        .toArray()
        .map((r) => [num(r.day), { requested: num(r.r), taken: num(r.t) }]),
    );
    const replies = new Map<number, number[]>();
    for (const r of this.sql.exec("SELECT day, ms FROM insight_first_replies WHERE day >= ? AND day <= ? ORDER BY day, ms", first, last).toArray()) {
      const list = replies.get(num(r.day)) ?? [];
      list.push(num(r.ms));
      replies.set(num(r.day), list);
    }
    return Array.from({ length: days }, (_, i) => {
      const day = first + i;
      const c = counts.get(day) ?? { requested: 0, taken: 0 };
      return { date: dayDate(day), ...c, medianFirstReplyMs: median(replies.get(day) ?? []) };
    });
  }

  /** The newest rated answers since `since`, each with the visitor's question before it. */
  private ratedAnswers(since: number): RatedAnswer[] {
    const rows = this.sql
      .exec(
        "SELECT id, session_id, rating, rated_at, content, created_at FROM visitor_messages WHERE rated_at >= ? ORDER BY rated_at DESC, id DESC LIMIT ?",
        since,
        insightsLimits.maxListed,
      )
      .toArray();
    return rows.flatMap((r): RatedAnswer[] => {
      if (!isRating(r.rating)) return [];
      const [asked] = this.sql
        .exec(
          `SELECT content FROM visitor_messages WHERE session_id = ? AND role = 'user' AND (created_at < ? OR (created_at = ? AND id < ?))
           ORDER BY created_at DESC, id DESC LIMIT 1`,
          r.session_id,
          r.created_at,
          r.created_at,
          r.id,
        )
        .toArray();
      return [
        {
          sessionId: str(r.session_id),
          messageId: str(r.id),
          rating: r.rating,
          question: preview(str(asked?.content), insightsLimits.maxQuestionChars),
          answer: preview(str(r.content), insightsLimits.answerPreviewChars),
          ratedAt: num(r.rated_at),
        },
      ];
    });
  }

  /**
   * The most asked questions since day `first` (`asked`), or the gaps: questions retrieval found
   * nothing for in the period and still found nothing the last time they were asked (a gap the
   * owner filled leaves the list at its next asking). Exact per-day sums, most first; the
   * `groupedCandidates` most asked rows are grouped (insight-question.ts: near-identical questions,
   * rows of older keys re-keyed) before `maxListed` are listed.
   */
  private questions(first: number, by: "asked" | "gaps"): InsightQuestion[] {
    const gaps = by === "gaps";
    const rows = this.sql
      .exec(
        `SELECT q.normalized, q.wording, q.last_asked_at, q.last_gap_at, q.session_ids, q.gap_session_ids, d.n
         FROM (SELECT question_id, sum(${gaps ? "gaps" : "asked"}) AS n FROM insight_question_days WHERE day >= ? GROUP BY question_id) d
         JOIN insight_questions q ON q.id = d.question_id
         WHERE d.n > 0 ${gaps ? "AND q.last_was_gap = 1" : ""}
         ORDER BY d.n DESC, q.last_asked_at DESC, q.id DESC LIMIT ?`,
        first,
        insightsLimits.groupedCandidates,
      )
      .toArray();
    return groupQuestions(
      rows.map((r: Row) => ({
        key: str(r.normalized),
        wording: str(r.wording),
        count: num(r.n),
        lastAskedAt: num(gaps ? (r.last_gap_at ?? r.last_asked_at) : r.last_asked_at),
        sessionIds: sessionIdList(gaps ? r.gap_session_ids : r.session_ids),
      })),
    );
  }

  // ── Bounds ────────────────────────────────────────────────────────────────────────────────────

  private addToDay(day: number, conversations: number, messages: number) {
    const updated = this.sql
      .exec("UPDATE insight_days SET conversations = conversations + ?, messages = messages + ? WHERE day = ? RETURNING day", conversations, messages, day)
      .toArray();
    if (updated.length) return;
    this.sql.exec("INSERT INTO insight_days (day, conversations, messages) VALUES (?, ?, ?)", day, conversations, messages);
    // The first count of a day (once a day per assistant): what has aged out goes.
    this.prune(utcDay(Date.now()));
  }

  /** Rows older than `daysKept` days before `today`, and questions not asked since then. */
  private prune(today: number) {
    const oldest = today - this.limits.daysKept + 1;
    this.sql.exec("DELETE FROM insight_days WHERE day < ?", oldest);
    this.sql.exec("DELETE FROM insight_question_days WHERE day < ?", oldest);
    this.sql.exec("DELETE FROM insight_first_replies WHERE day < ?", oldest);
    this.sql.exec("DELETE FROM insight_questions WHERE last_asked_at < ?", oldest * DAY_MS);
  }

  /** Before a new question: the least asked (then the oldest) questions go until one more fits. */
  private makeRoomForOneQuestion() {
    const tracked = num(this.sql.exec("SELECT count(*) AS n FROM insight_questions").one().n);
    const over = tracked - this.limits.maxTrackedQuestions + 1;
    if (over <= 0) return;
    const victims = this.sql.exec("SELECT id FROM insight_questions ORDER BY asked, last_asked_at, id LIMIT ?", over).toArray();
    for (const { id } of victims) {
      this.sql.exec("DELETE FROM insight_question_days WHERE question_id = ?", id);
      this.sql.exec("DELETE FROM insight_questions WHERE id = ?", id);
    }
  }
}
