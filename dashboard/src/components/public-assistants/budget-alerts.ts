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

/** A budget about to be lowered to this month's use or below: what to ask the owner first. */
export interface BudgetLowering {
  used: number;
  limit: number;
}

/**
 * Whether saving `next` (null: none) in place of `saved` lowers a budget to this month's `used`
 * or below (the budget would be used up the moment it is saved): then the owner confirms first.
 * Raising, removing, or lowering to a figure still above the use asks nothing.
 */
export function budgetLowering(saved: number | null, next: number | null, used: number): BudgetLowering | null {
  if (next === null || !Number.isFinite(next)) return null;
  if (saved !== null && next >= saved) return null;
  return used >= next ? { used, limit: next } : null;
}

/** What an assistant's badge says: inactive (switched off), paused (its budget or all assistants' is used up and pauses it), or active. */
export type AssistantStatus = "active" | "inactive" | "paused";

export function assistantStatus(assistant: { _id: string; isActive: boolean }, response: BudgetsResponse | null): AssistantStatus {
  if (!assistant.isActive) return "inactive";
  if (!response) return "active";
  const own = response.assistants.find((a) => a.assistantId === assistant._id);
  return response.owner.paused || own?.paused ? "paused" : "active";
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
