import { budgets, type BudgetAction } from "../../contract";

/**
 * Monthly message budgets, the arithmetic both counters share: the assistant's own
 * object (assistant budget) and the owner's room (all-assistants budget). Pure, unit-tested.
 */

/** The UTC calendar month of `now`: "2026-11". */
export const monthKey = (now: number): string => new Date(now).toISOString().slice(0, 7);

/** When the UTC month of `now` ends (the first millisecond of the next one). */
export function monthEnd(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** The month before `month` ("2026-01" → "2025-12"). */
export function previousMonth(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return monthKey(Date.UTC(y, m - 2, 1));
}

/** Seconds until the budget's month ends (a paused budget lifts then): Retry-After of a refusal. */
export const secondsToMonthEnd = (now: number) => Math.max(1, Math.ceil((monthEnd(now) - now) / 1000));

/** The thresholds as whole percents: [80, 100]. */
export const thresholdPercents = budgets.thresholds.map((t) => Math.round(t * 100));

/** The message count at which `percent` of `limit` is reached (80 % of 5 → 4; of 3 → 3). */
export const thresholdCount = (limit: number, percent: number) => Math.max(1, Math.ceil((limit * percent) / 100 - 1e-9));

/** Whether a budget refuses the next message: one is set, it is used up, and its owner chose to pause. */
export const budgetPaused = (limit: number | null, action: BudgetAction, used: number) => limit !== null && action === "pause" && used >= limit;

/** A threshold already told for this month, with the budget it was told for. */
export interface NotifiedThreshold {
  percent: number;
  budget: number;
}

/**
 * The thresholds to record as told at `used` messages of `limit`: each one reached and not yet
 * told for this month at this budget or a larger one (a raised budget re-arms its thresholds; a
 * lowered one does not tell again what it already told). `email` is the highest of them: when a
 * message crosses several at once (a budget of 1, or one lowered below the month's use) the owner
 * gets one e-mail, for the highest; the others are recorded as told.
 */
export function thresholdsDue(used: number, limit: number | null, notified: readonly NotifiedThreshold[]): { record: number[]; email: number | null } {
  if (limit === null) return { record: [], email: null };
  const record = thresholdPercents.filter((percent) => {
    if (used < thresholdCount(limit, percent)) return false;
    const told = notified.find((n) => n.percent === percent);
    return !told || told.budget < limit;
  });
  return { record, email: record.length ? Math.max(...record) : null };
}
