import { budgets, type BudgetAction, type BudgetUsage } from "../../contract";
import { budgetPaused, monthKey, previousMonth } from "./budget-math";
import { BudgetNotices } from "./budget-notices";

/** What the owner's room needs of its store (chat/room-store.ts): its SQLite (schema up to date) and `room_state`. */
export interface OwnerBudgetHost {
  readonly sql: SqlStorage;
  state(key: string): string | null;
  setState(key: string, value: string): void;
}

export interface OwnerBudgetSetting {
  limit: number | null;
  action: BudgetAction;
}

/** `room_state` keys: the budget ({ limit, action } JSON) and the month it paused the assistants. */
const SETTING_KEY = "owner_budget";
const PAUSED_KEY = "owner_budget_paused";

/**
 * The owner's all-assistants monthly budget, in their own room (the user's ChatRoom SQLite,
 * room migration 0003_owner_budgets). Each assistant's object reports its month's count after a
 * message was admitted (absolute, not +1: a retried or reordered report never counts twice; the
 * room keeps the greatest); the month's total is their sum, so it is exact once the reports are in.
 * When the total reaches the budget with "pause", the room tells every assistant of the owner to
 * refuse (`pausedNow`); messages already admitted meanwhile are answered (a few, in flight).
 * Synchronous, no import from `cloudflare:workers`.
 */
export class OwnerBudget {
  constructor(private readonly host: OwnerBudgetHost) {}

  setting(): OwnerBudgetSetting {
    try {
      const value = JSON.parse(this.host.state(SETTING_KEY) ?? "null") as Partial<OwnerBudgetSetting> | null;
      const limit = typeof value?.limit === "number" && Number.isInteger(value.limit) ? value.limit : null;
      const action = value?.action === "continue" ? "continue" : budgets.defaultAction;
      return { limit, action };
    } catch {
      return { limit: null, action: budgets.defaultAction };
    }
  }

  /** Each assistant's count of `month` as last reported. */
  perAssistant(month: string): Map<string, number> {
    const rows = this.host.sql.exec("SELECT assistant_id, used FROM owner_budget_usage WHERE month = ?", month).toArray();
    return new Map(rows.map((r) => [String(r.assistant_id), Number(r.used)]));
  }

  total(month: string): number {
    return Number(this.host.sql.exec("SELECT coalesce(sum(used), 0) AS n FROM owner_budget_usage WHERE month = ?", month).one().n);
  }

  /**
   * An assistant's object reports its count of `month`. Returns whether the owner's budget pauses
   * the assistants this month, whether that started with this report (the room tells them all),
   * and whether a threshold e-mail is waiting.
   */
  report(input: { assistantId: string; month: string; used: number; userId: string; now: number }): { paused: boolean; pausedNow: boolean; notice: boolean } {
    const { sql } = this.host;
    sql.exec(
      "INSERT INTO owner_budget_usage (month, assistant_id, used) VALUES (?, ?, ?) ON CONFLICT (month, assistant_id) DO UPDATE SET used = max(used, excluded.used)",
      input.month,
      input.assistantId,
      Math.max(0, Math.floor(input.used)),
    );
    sql.exec("DELETE FROM owner_budget_usage WHERE month < ?", previousMonth(monthKey(input.now)));
    return this.settle(input.month, input.userId, input.now);
  }

  /** The owner sets (or removes: limit null) the budget; no `action` keeps the one chosen before. Same answer as `report`. */
  set(input: { setting: { limit: number | null; action?: BudgetAction | undefined }; userId: string; now: number }): { paused: boolean; pausedNow: boolean; notice: boolean } {
    const setting: OwnerBudgetSetting = { limit: input.setting.limit, action: input.setting.action ?? this.setting().action };
    this.host.setState(SETTING_KEY, JSON.stringify(setting));
    return this.settle(monthKey(input.now), input.userId, input.now);
  }

  /** This month's state of the budget (the dashboard). */
  usage(now: number): BudgetUsage {
    const month = monthKey(now);
    const { limit, action } = this.setting();
    const used = this.total(month);
    return { limit, action, used, month, paused: budgetPaused(limit, action, used) };
  }

  /** Whether the assistants are paused for `month` as last told. */
  pausedMonth(): string | null {
    return this.host.state(PAUSED_KEY) || null;
  }

  /** Account deletion: the budget, its counts and e-mails go. */
  erase() {
    this.host.sql.exec("DELETE FROM owner_budget_usage");
    this.host.sql.exec("DELETE FROM room_state WHERE key IN (?, ?)", SETTING_KEY, PAUSED_KEY);
    new BudgetNotices(this.host).clear();
  }

  private settle(month: string, userId: string, now: number) {
    const { limit, action } = this.setting();
    const used = this.total(month);
    // A report of last month (a message admitted just before midnight UTC) never pauses this one.
    const paused = month === monthKey(now) && budgetPaused(limit, action, used);
    const before = this.pausedMonth();
    let pausedNow = false;
    if (paused && before !== month) {
      this.host.setState(PAUSED_KEY, month);
      pausedNow = true;
    } else if (!paused && before === month) this.host.setState(PAUSED_KEY, "");
    const notice = new BudgetNotices(this.host).record({ scope: "owner", month, used, limit, action, name: "", userId, now });
    return { paused, pausedNow, notice };
  }
}
