/**
 * Which budget banners the dashboard shows, from GET /api/budgets: one per budget at
 * 80 % or more this month, paused first. Pure, unit-tested.
 */
import { budgets, budgetUi, type BudgetsResponse, type BudgetUsage } from "../../../../contract";

export interface BudgetAlert {
  key: string;
  /** paused: the budget refuses messages (role=alert); warning: ≥ 80 %, or used up and still answering (role=status). */
  level: "paused" | "warning";
  text: string;
  /** How to resume (paused only). */
  hint?: string;
}

const warnShare = Math.min(...budgets.thresholds);

function alertOf(key: string, name: string | null, usage: BudgetUsage): BudgetAlert | null {
  const { limit, used } = usage;
  if (limit === null || used < limit * warnShare) return null;
  // name null: the all-assistants budget, in its own words.
  if (usage.paused) {
    const text = name === null ? budgetUi.ownerBannerPaused(limit) : budgetUi.bannerPaused(name, limit);
    return { key, level: "paused", text, hint: name === null ? budgetUi.resumeOwner : budgetUi.resumeAssistant };
  }
  if (used >= limit) return { key, level: "warning", text: name === null ? budgetUi.ownerBannerContinuing(used, limit) : budgetUi.bannerContinuing(name, used, limit) };
  return { key, level: "warning", text: name === null ? budgetUi.ownerBannerWarning(used, limit) : budgetUi.bannerWarning(name, used, limit) };
}

/** The banners for the owner's budgets; with `assistantId`, the all-assistants one and that assistant's only. */
export function budgetAlerts(response: BudgetsResponse | null, assistantId?: string): BudgetAlert[] {
  if (!response) return [];
  const alerts = [
    alertOf("owner", null, response.owner),
    ...response.assistants.filter((a) => assistantId === undefined || a.assistantId === assistantId).map((a) => alertOf(a.assistantId, a.name, a)),
  ].filter((a): a is BudgetAlert => a !== null);
  return alerts.sort((a, b) => Number(b.level === "paused") - Number(a.level === "paused"));
}
