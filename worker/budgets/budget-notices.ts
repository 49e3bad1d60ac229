import { budgetMessages, budgetUi, type BudgetAction } from "../../contract";
import { dbOf } from "../db/client";
import type { Env } from "../env";
import { emailSenderFor } from "../services/email/sender";
import { previousMonth, thresholdsDue, type NotifiedThreshold } from "./budget-math";
import { workspaceOwnerEmail } from "../services/team/owner-email";

/**
 * The budget e-mails still to send, and those sent, in the SQLite of the object that counts the
 * budget (`budget_notices`: the assistant's own object for its budget, the owner's room for the
 * all-assistants one). A threshold is recorded as told for the month in the same synchronous
 * storage step as the message that reaches it, so concurrent messages and retries record it once;
 * the e-mail is sent afterwards (`deliverBudgetNotices`), leased while it is on its way so two
 * deliveries never send the same row, marked sent after success, and retried with backoff (the
 * object's alarm) after a failure. No import from `cloudflare:workers`.
 */

type SqlHost = Pick<DurableObjectStorage, "sql">;

/** Which budget a notice is about: "assistant" (the object's own) or "owner" (all of the owner's assistants). */
export type BudgetScope = "assistant" | "owner";

export interface PendingNotice {
  scope: BudgetScope;
  month: string;
  percent: number;
  budget: number;
  used: number;
  action: BudgetAction;
  /** The assistant's name, or "" for the all-assistants budget. */
  name: string;
  /** The owner (users.id) whose address gets the e-mail (read from D1 when sending). */
  userId: string;
}

/** How long a delivery holds a row before another may try it (a send that hung). */
const LEASE_MS = 60_000;
/** After this many failed sends the notice is given up (logged): the dashboard banner still says it. */
const MAX_ATTEMPTS = 12;
const backoffMs = (attempts: number) => Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));

export class BudgetNotices {
  constructor(private readonly storage: SqlHost) {}

  private get sql() {
    return this.storage.sql;
  }

  /** What this month's thresholds of `scope` were told at. */
  notified(scope: BudgetScope, month: string): NotifiedThreshold[] {
    return this.sql
      .exec("SELECT percent, budget FROM budget_notices WHERE scope = ? AND month = ?", scope, month)
      .toArray()
      .map((r) => ({ percent: Number(r.percent), budget: Number(r.budget) }));
  }

  /**
   * Records the thresholds `used` reached (synchronous: call in the step that counted the
   * message). The highest is queued as an e-mail, the others recorded as told. True when an
   * e-mail was queued (the caller starts a delivery and arms its alarm).
   */
  record(input: { scope: BudgetScope; month: string; used: number; limit: number | null; action: BudgetAction; name: string; userId: string; now: number }): boolean {
    const due = thresholdsDue(input.used, input.limit, this.notified(input.scope, input.month));
    if (input.limit === null || due.email === null) return false;
    for (const percent of due.record) {
      this.sql.exec(
        `INSERT INTO budget_notices (scope, month, percent, budget, used, action, name, user_id, status, attempts, next_at, lease_until, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0, ?)
         ON CONFLICT (scope, month, percent) DO UPDATE SET budget = excluded.budget, used = excluded.used, action = excluded.action,
           name = excluded.name, user_id = excluded.user_id, status = excluded.status, attempts = 0, next_at = excluded.next_at, lease_until = 0`,
        input.scope,
        input.month,
        percent,
        input.limit,
        input.used,
        input.action,
        input.name,
        input.userId,
        percent === due.email ? "pending" : "skipped",
        input.now,
        input.now,
      );
    }
    // Months before the last two are history nobody reads: the table stays a few rows.
    this.sql.exec("DELETE FROM budget_notices WHERE month < ?", previousMonth(input.month));
    return true;
  }

  /** Takes up to `limit` pending notices due now and leases them (synchronous, so two deliveries never take the same row). */
  take(now: number, limit = 10): PendingNotice[] {
    const rows = this.sql
      .exec("SELECT * FROM budget_notices WHERE status = 'pending' AND next_at <= ? AND lease_until <= ? ORDER BY created_at LIMIT ?", now, now, limit)
      .toArray();
    for (const r of rows) this.sql.exec("UPDATE budget_notices SET lease_until = ? WHERE scope = ? AND month = ? AND percent = ?", now + LEASE_MS, r.scope, r.month, r.percent);
    return rows.map((r) => ({
      scope: String(r.scope) as BudgetScope,
      month: String(r.month),
      percent: Number(r.percent),
      budget: Number(r.budget),
      used: Number(r.used),
      action: String(r.action) === "continue" ? "continue" : "pause",
      name: String(r.name),
      userId: String(r.user_id),
    }));
  }

  sent(n: PendingNotice) {
    this.sql.exec("UPDATE budget_notices SET status = 'sent', lease_until = 0 WHERE scope = ? AND month = ? AND percent = ? AND budget = ?", n.scope, n.month, n.percent, n.budget);
  }

  failed(n: PendingNotice, now: number) {
    const [r] = this.sql.exec("SELECT attempts FROM budget_notices WHERE scope = ? AND month = ? AND percent = ? AND budget = ?", n.scope, n.month, n.percent, n.budget).toArray();
    if (!r) return;
    const attempts = Number(r.attempts) + 1;
    const status = attempts >= MAX_ATTEMPTS ? "failed" : "pending";
    this.sql.exec(
      "UPDATE budget_notices SET attempts = ?, status = ?, next_at = ?, lease_until = 0 WHERE scope = ? AND month = ? AND percent = ? AND budget = ?",
      attempts,
      status,
      now + backoffMs(attempts),
      n.scope,
      n.month,
      n.percent,
      n.budget,
    );
  }

  /** When the next pending notice is due (the object's alarm), or null. */
  nextDue(): number | null {
    const [r] = this.sql.exec("SELECT min(max(next_at, lease_until)) AS at FROM budget_notices WHERE status = 'pending'").toArray();
    return r && r.at !== null ? Number(r.at) : null;
  }

  /** Every notice (tests; account deletion). */
  clear() {
    this.sql.exec("DELETE FROM budget_notices");
  }
}

/** The e-mail of one notice (contract wording): what was used, and what happens at 100 %. */
export function budgetEmail(n: Pick<PendingNotice, "scope" | "percent" | "budget" | "used" | "action" | "name">) {
  const name = n.scope === "owner" ? budgetUi.allAssistantsName : n.name;
  return {
    subject: budgetMessages.emailSubject(name, n.percent),
    text: budgetMessages.emailBody(name, n.used, n.budget, budgetUi.emailOutcome(n.scope, n.action, n.percent >= 100)),
  };
}

/**
 * Sends the notices that are due, one e-mail each, to the owner's address (one D1 read per
 * e-mail: only when a threshold was reached). Each is marked sent after its send succeeded, or
 * scheduled again after a failure. Returns when the next one is due (arm the alarm), or null.
 * Never throws.
 */
export async function deliverBudgetNotices(env: Env, storage: SqlHost, now = Date.now()): Promise<number | null> {
  const notices = new BudgetNotices(storage);
  for (const notice of notices.take(now)) {
    try {
      const ownerEmail = await workspaceOwnerEmail(env.DB, notice.userId);
      // The account is gone: nobody to tell.
      if (!ownerEmail) {
        notices.sent(notice);
        continue;
      }
      await emailSenderFor({ env, db: dbOf(env.DB) }).send({ to: ownerEmail, ...budgetEmail(notice) });
      notices.sent(notice);
    } catch (error) {
      console.error(JSON.stringify({ event: "budget-email-failed", scope: notice.scope, month: notice.month, percent: notice.percent, error: String(error) }));
      notices.failed(notice, Date.now());
    }
  }
  return notices.nextDue();
}
