import { describe, expect, it } from "vitest";
import { budgetPaused, monthEnd, monthKey, previousMonth, secondsToMonthEnd, thresholdCount, thresholdsDue } from "./budget-math";

describe("month key (UTC)", () => {
  it("is the UTC calendar month, whatever the local time", () => {
    expect(monthKey(Date.UTC(2026, 10, 30, 23, 59, 59, 999))).toBe("2026-11");
    expect(monthKey(Date.UTC(2026, 11, 1))).toBe("2026-12");
    expect(monthKey(Date.UTC(2027, 0, 1))).toBe("2027-01");
  });
  it("ends at the first millisecond of the next month, across a year", () => {
    expect(monthEnd(Date.UTC(2026, 11, 15, 12))).toBe(Date.UTC(2027, 0, 1));
    expect(monthEnd(Date.UTC(2026, 1, 28, 23, 59))).toBe(Date.UTC(2026, 2, 1));
    expect(secondsToMonthEnd(Date.UTC(2027, 0, 1) - 1500)).toBe(2);
  });
  it("knows the month before", () => {
    expect(previousMonth("2027-01")).toBe("2026-12");
    expect(previousMonth("2026-11")).toBe("2026-10");
  });
});

describe("thresholds", () => {
  it("counts at which 80 % and 100 % are reached", () => {
    expect(thresholdCount(5, 80)).toBe(4);
    expect(thresholdCount(10, 80)).toBe(8);
    expect(thresholdCount(3, 80)).toBe(3);
    expect(thresholdCount(1, 80)).toBe(1);
    expect(thresholdCount(10_000_000, 100)).toBe(10_000_000);
  });

  it("tells each threshold once, at the message that reaches it", () => {
    const told: { percent: number; budget: number }[] = [];
    const emails: (number | null)[] = [];
    for (let used = 1; used <= 8; used++) {
      const due = thresholdsDue(used, 5, told);
      for (const percent of due.record) told.push({ percent, budget: 5 });
      emails.push(due.email);
    }
    expect(emails).toEqual([null, null, null, 80, 100, null, null, null]);
  });

  it("sends one e-mail, the highest, when one message reaches both", () => {
    expect(thresholdsDue(1, 1, [])).toEqual({ record: [80, 100], email: 100 });
    expect(thresholdsDue(50, 10, [])).toEqual({ record: [80, 100], email: 100 });
  });

  it("a raised budget re-arms its thresholds; a lowered one does not tell again", () => {
    const told = [{ percent: 80, budget: 10 }, { percent: 100, budget: 10 }];
    expect(thresholdsDue(12, 20, told)).toEqual({ record: [], email: null });
    expect(thresholdsDue(16, 20, told)).toEqual({ record: [80], email: 80 });
    expect(thresholdsDue(16, 8, [{ percent: 80, budget: 20 }])).toEqual({ record: [100], email: 100 });
    expect(thresholdsDue(16, null, [])).toEqual({ record: [], email: null });
  });

  it("pauses only a set, used-up budget whose action is pause", () => {
    expect(budgetPaused(5, "pause", 5)).toBe(true);
    expect(budgetPaused(5, "pause", 4)).toBe(false);
    expect(budgetPaused(5, "continue", 9)).toBe(false);
    expect(budgetPaused(null, "pause", 9)).toBe(false);
  });
});
