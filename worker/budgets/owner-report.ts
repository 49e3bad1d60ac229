import { getUserRoom } from "../chat/get-chat-room";
import type { Env } from "../env";
import { AssistantBudget } from "./assistant-budget";
import { monthKey } from "./budget-math";

/** A refused message re-asks the owner's room at most this often whether its pause still holds. */
const RECHECK_MS = 10_000;
/**
 * Reports leave at most this often: a busy assistant sends one report a second with its latest
 * (absolute) count instead of one per message. A report per message cost the hub a fifth of its
 * turns a second at one visitor (bench/hub-throughput.mjs, worker/budgets/README.md).
 */
const REPORT_SPACING_MS = 1_000;

/**
 * An assistant's object tells its owner's room (the all-assistants budget, owner-budget.ts) its
 * count of the month, after a message was admitted: off the visitor's path (the hub's
 * `waitUntil`), never before the first token. One report at a time per object, at most one a
 * second: messages admitted while one is on its way or waiting are carried by the next report
 * with the latest count (absolute counts, so nothing is lost or counted twice). The room's answer sets or lifts the owner's pause here.
 * While paused by the owner, a refused message re-asks at most every 10 s, so a pause lifted by
 * a budget change this object missed lifts soon all the same. Never throws.
 */
export class OwnerBudgetReports {
  private running: Promise<void> | null = null;
  /** Months with a count not yet reported: the month of each admitted message, taken when it was counted. */
  private readonly pending = new Set<string>();
  private lastRecheck = 0;
  private lastSent = 0;

  constructor(
    private readonly env: Env,
    private readonly storage: Pick<DurableObjectStorage, "sql">,
  ) {}

  /**
   * Reports the count of `month` (the month the message was counted in: one admitted at 23:59:59
   * UTC on the last day is reported for that month, even when the report leaves after midnight),
   * now, or once the report on its way has answered.
   */
  report(assistantId: string, userId: string, month = monthKey(Date.now())): Promise<void> {
    this.pending.add(month);
    if (this.running) return this.running;
    this.running = this.loop(assistantId, userId).finally(() => {
      this.running = null;
      // A month added after the loop's last look (between its end and this line) still goes.
      const [left] = this.pending;
      if (left !== undefined) void this.report(assistantId, userId, left);
    });
    return this.running;
  }

  /** A message was refused because the owner's budget paused this assistant: re-ask the room now and then. */
  recheck(assistantId: string, userId: string, now = Date.now()): Promise<void> | null {
    if (now - this.lastRecheck < RECHECK_MS) return null;
    this.lastRecheck = now;
    return this.report(assistantId, userId);
  }

  private async loop(assistantId: string, userId: string) {
    const budget = new AssistantBudget(this.storage);
    while (this.pending.size > 0) {
      const wait = this.lastSent + REPORT_SPACING_MS - Date.now();
      if (wait > 0) await new Promise<void>((resolve) => setTimeout(resolve, wait));
      const [month] = this.pending;
      this.pending.delete(month!);
      try {
        this.lastSent = Date.now();
        const answer = await getUserRoom(this.env, userId).budgetReport({ assistantId, month: month!, used: budget.used(month!) });
        if (answer.ok) budget.setOwnerPaused(month!, answer.paused);
      } catch (error) {
        // The next admitted message reports the count again (absolute): nothing is counted twice.
        console.error(JSON.stringify({ event: "owner-budget-report-failed", assistantId, error: String(error) }));
        this.pending.clear();
        return;
      }
    }
  }
}
