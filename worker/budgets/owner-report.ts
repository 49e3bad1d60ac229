import { getUserRoom } from "../durable-objects/stubs";
import type { Env } from "../env";
import { AssistantBudget } from "./assistant-budget";
import { monthKey } from "./budget-math";

/** A refused message re-asks the owner's room at most this often whether its pause still holds. */
const RECHECK_MS = 10_000;
/**
 * Reports leave at most this often: a busy assistant sends one report a second with its latest
 * (absolute) count instead of one per message (a report per message cost the object a fifth of
 * its turns a second: bench/README.md, hub-throughput).
 */
const REPORT_SPACING_MS = 1_000;

/**
 * An assistant's object tells its owner's room (the all-assistants budget, owner-budget.ts) its
 * count of the month, after a message was admitted, off the visitor's path: `add` notes the month
 * and answers when the report may leave; the object's alarm (`report-to-owner`) then calls
 * `send`. At most one report a second, each with the latest count of every month noted meanwhile
 * (absolute counts: nothing is lost or counted twice). The room's answer sets or lifts the
 * owner's pause here. While paused by the owner, a refused message re-asks at most every 10 s, so
 * a pause lifted by a budget change this object missed lifts soon all the same. An object evicted
 * with a month noted reports the current month when its alarm runs. Never throws.
 */
export class OwnerBudgetReports {
  /** Months with a count not yet reported: the month of each admitted message, taken when it was counted. */
  private readonly pending = new Set<string>();
  private lastRecheck = 0;
  private lastSent = 0;

  constructor(
    private readonly env: Env,
    private readonly storage: Pick<DurableObjectStorage, "sql">,
  ) {}

  /**
   * Notes the month a message was counted in (one admitted at 23:59:59 UTC on the last day is
   * reported for that month, even when the report leaves after midnight); returns when the
   * report may leave.
   */
  add(now = Date.now(), month = monthKey(now)): number {
    this.pending.add(month);
    return Math.max(now, this.lastSent + REPORT_SPACING_MS);
  }

  /** A message was refused because the owner's budget paused this assistant: when to re-ask the room, or null (asked recently). */
  recheck(now = Date.now(), month = monthKey(now)): number | null {
    if (now - this.lastRecheck < RECHECK_MS) return null;
    this.lastRecheck = now;
    return this.add(now, month);
  }

  /** Sends the noted months' counts (the current month when none is noted: an evicted object's alarm). */
  async send(assistantId: string, userId: string, now = Date.now()): Promise<void> {
    if (this.pending.size === 0) this.pending.add(monthKey(now));
    const budget = new AssistantBudget(this.storage);
    for (const month of [...this.pending]) {
      this.pending.delete(month);
      try {
        this.lastSent = Date.now();
        const answer = await getUserRoom(this.env, userId).budgetReport({ assistantId, month, used: budget.used(month) });
        if (answer.ok) budget.setOwnerPaused(month, answer.paused);
      } catch (error) {
        // The next admitted message reports the count again (absolute): nothing is counted twice.
        console.error(JSON.stringify({ event: "owner-budget-report-failed", assistantId, error: String(error) }));
        this.pending.clear();
        return;
      }
    }
  }
}
