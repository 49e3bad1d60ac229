import type { AssistantConfig, BudgetUsage } from "../../contract";
import { budgetPaused, monthKey, previousMonth } from "./budget-math";
import { BudgetNotices } from "./budget-notices";

type SqlHost = Pick<DurableObjectStorage, "sql">;

/** `meta` key of the month the owner's all-assistants budget paused this assistant ("2026-11"). */
const OWNER_PAUSED_KEY = "owner_budget_paused";

/**
 * An assistant's monthly message budget in its own object (AssistantHub, `budget_months`,
 * migration 0009_budgets): the visitor messages the object admitted, per UTC month. Synchronous:
 * `refusal` is checked and `count` moved in the same step as the other counters
 * (hub-visitor-turn.ts), so with a budget of N and "pause", N messages pass and the N+1-th is
 * refused, whatever the concurrency. Also keeps whether the owner's all-assistants budget paused
 * this assistant this month (told by the owner's room). No import from `cloudflare:workers`.
 */
export class AssistantBudget {
  constructor(private readonly storage: SqlHost) {}

  private get sql() {
    return this.storage.sql;
  }

  used(month: string): number {
    const [r] = this.sql.exec("SELECT used FROM budget_months WHERE month = ?", month).toArray();
    return r ? Number(r.used) : 0;
  }

  /** Whether the owner's budget paused this assistant for `month` (a later month lifts it by itself). */
  ownerPaused(month: string): boolean {
    const [r] = this.sql.exec("SELECT value FROM meta WHERE key = ?", OWNER_PAUSED_KEY).toArray();
    return r !== undefined && String(r.value) === month;
  }

  /** The owner's room: the all-assistants budget is used up this month (`paused`), or no longer. */
  setOwnerPaused(month: string, paused: boolean) {
    if (paused) this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", OWNER_PAUSED_KEY, month);
    else this.sql.exec("DELETE FROM meta WHERE key = ? AND value <= ?", OWNER_PAUSED_KEY, month);
  }

  /** Why the next message is refused ("assistant": its own budget, "owner": all assistants'), or null. Counts nothing. */
  refusal(config: Pick<AssistantConfig, "monthlyBudget" | "budgetAction">, now: number): "assistant" | "owner" | null {
    const month = monthKey(now);
    if (budgetPaused(config.monthlyBudget, config.budgetAction, this.used(month))) return "assistant";
    return this.ownerPaused(month) ? "owner" : null;
  }

  /**
   * Counts one admitted message in its month and records the thresholds it reached (an e-mail
   * queued in `budget_notices`). Returns the month's count and whether an e-mail is waiting.
   */
  count(input: { config: Pick<AssistantConfig, "monthlyBudget" | "budgetAction">; name: string; userId: string; now: number }): { month: string; used: number; notice: boolean } {
    const month = monthKey(input.now);
    this.sql.exec("INSERT INTO budget_months (month, used) VALUES (?, 1) ON CONFLICT (month) DO UPDATE SET used = used + 1", month);
    this.sql.exec("DELETE FROM budget_months WHERE month < ?", previousMonth(month));
    const used = this.used(month);
    const notice = this.notify({ ...input, month, used });
    return { month, used, notice };
  }

  /**
   * Records the thresholds the month's count has reached and not told yet (a refused message of a
   * budget lowered below the month's use tells its 100 % too). True when an e-mail is waiting.
   */
  notify(input: { config: Pick<AssistantConfig, "monthlyBudget" | "budgetAction">; name: string; userId: string; now: number; month?: string; used?: number }): boolean {
    const month = input.month ?? monthKey(input.now);
    return new BudgetNotices(this.storage).record({
      scope: "assistant",
      month,
      used: input.used ?? this.used(month),
      limit: input.config.monthlyBudget,
      action: input.config.budgetAction,
      name: input.name,
      userId: input.userId,
      now: input.now,
    });
  }

  /** This month's usage of the assistant's own budget (the dashboard). */
  usage(config: Pick<AssistantConfig, "monthlyBudget" | "budgetAction">, now: number): BudgetUsage & { ownerPaused: boolean } {
    const month = monthKey(now);
    const used = this.used(month);
    return {
      limit: config.monthlyBudget,
      action: config.budgetAction,
      used,
      month,
      paused: budgetPaused(config.monthlyBudget, config.budgetAction, used),
      ownerPaused: this.ownerPaused(month),
    };
  }
}
