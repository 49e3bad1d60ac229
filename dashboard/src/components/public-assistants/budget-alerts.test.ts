import { describe, expect, it } from "vitest";
import { budgetUi, type BudgetsResponse } from "../../../../contract";
import { budgetAlerts } from "./budget-alerts";

const usage = (limit: number | null, used: number, paused = false) => ({ limit, used, paused, action: "pause" as const, month: "2026-11" });
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
