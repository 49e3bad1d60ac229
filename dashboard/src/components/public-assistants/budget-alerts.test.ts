import { describe, expect, it } from "vitest";
import { budgetUi, type BudgetAction, type BudgetsResponse } from "../../../../contract";
import { assistantStatus, budgetAlerts, budgetLowering } from "./budget-alerts";

const usage = (limit: number | null, used: number, paused = false) => ({ limit, used, paused, action: "pause" as BudgetAction, month: "2026-11" });
const response = (owner: ReturnType<typeof usage>, ...assistants: [string, ReturnType<typeof usage>][]): BudgetsResponse => ({
  owner,
  assistants: assistants.map(([name, u]) => ({ ...u, assistantId: `id-${name}`, name })),
});

describe("budget banners", () => {
  it("show nothing under 80 % or without a budget", () => {
    expect(budgetAlerts(response(usage(null, 900), ["Shop", usage(10, 7)], ["Docs", usage(null, 50)]))).toEqual([]);
    expect(budgetAlerts(null)).toEqual([]);
  });

  it("warn from 80 %, say paused at 100 % with how to resume, paused first", () => {
    const alerts = budgetAlerts(response(usage(100, 80), ["Shop", usage(10, 10, true)], ["Docs", usage(5, 6)]));
    expect(alerts).toEqual([
      { key: "id-Shop", level: "paused", text: budgetUi.bannerPaused("Shop", 10), hint: budgetUi.resumeAssistant },
      { key: "owner", level: "warning", text: budgetUi.ownerBannerWarning(80, 100) },
      { key: "id-Docs", level: "warning", text: budgetUi.bannerContinuing("Docs", 6, 5) },
    ]);
    expect(budgetUi.bannerWarning("Shop", 80, 100)).toContain("80 %");
  });

  it("on an assistant's page: that assistant's and the all-assistants budget only", () => {
    const alerts = budgetAlerts(response(usage(10, 10, true), ["Shop", usage(10, 9)], ["Docs", usage(5, 5, true)]), "id-Shop");
    expect(alerts.map((a) => [a.key, a.level])).toEqual([
      ["owner", "paused"],
      ["id-Shop", "warning"],
    ]);
    expect(alerts[0]).toMatchObject({ text: budgetUi.ownerBannerPaused(10), hint: budgetUi.resumeOwner });
  });
});

describe("lowering a budget below this month's use", () => {
  it("asks first when the new budget is at or below the month's use and lower than the saved one (or there was none)", () => {
    expect(budgetLowering(20, 10, 11)).toEqual({ used: 11, limit: 10 });
    expect(budgetLowering(20, 11, 11)).toEqual({ used: 11, limit: 11 });
    expect(budgetLowering(null, 5, 9)).toEqual({ used: 9, limit: 5 });
  });

  it("asks nothing when raising, removing, keeping, or lowering to a figure still above the use", () => {
    expect(budgetLowering(10, 20, 15)).toBeNull();
    expect(budgetLowering(10, null, 15)).toBeNull();
    expect(budgetLowering(10, 10, 15)).toBeNull();
    expect(budgetLowering(100, 50, 12)).toBeNull();
    expect(budgetLowering(null, Number.NaN, 3)).toBeNull();
  });
});

describe("an assistant's badge", () => {
  const shop = { _id: "id-Shop", isActive: true };
  it("says paused when its own budget or all assistants' pauses it, inactive before either", () => {
    expect(assistantStatus(shop, response(usage(null, 0), ["Shop", usage(10, 10, true)]))).toBe("paused");
    expect(assistantStatus(shop, response(usage(5, 5, true), ["Shop", usage(null, 3)]))).toBe("paused");
    expect(assistantStatus({ ...shop, isActive: false }, response(usage(5, 5, true), ["Shop", usage(10, 10, true)]))).toBe("inactive");
  });
  it("says active when nothing pauses it, a used-up budget that keeps answering included, or before the budgets load", () => {
    expect(assistantStatus(shop, response(usage(null, 0), ["Shop", { ...usage(10, 12), action: "continue" as const }]))).toBe("active");
    expect(assistantStatus(shop, null)).toBe("active");
  });
});
