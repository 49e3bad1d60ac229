import { describe, expect, it } from "vitest";
import { chartBox, chartShapes, niceMax, ratingShare, shortDate, totals, yTicks, handoffTotals, leadsLine, leadsPerDay } from "./insights-chart";

const day = (date: string, conversations: number, messages: number) => ({ date, conversations, messages });

describe("the chart's scale", () => {
  it("rounds the top of the axis up to 1, 2 or 5 × 10^k, at least 1", () => {
    expect([0, 1, 2, 3, 7, 10, 11, 19, 21, 99, 101, 4999, Number.NaN].map(niceMax)).toEqual([1, 1, 2, 5, 10, 10, 20, 20, 50, 100, 200, 5000, 1]);
  });

  it("labels 0, the middle when whole, and the top", () => {
    expect(yTicks(1)).toEqual([0, 1]);
    expect(yTicks(5)).toEqual([0, 5]);
    expect(yTicks(20)).toEqual([0, 10, 20]);
  });
});

describe("chartShapes", () => {
  const box = { width: 130, height: 120, left: 10, right: 0, top: 10, bottom: 10 };

  it("gives each day one slot, bars from the baseline, both series on one axis", () => {
    const shapes = chartShapes([day("2026-11-22", 1, 4), day("2026-11-23", 0, 0), day("2026-11-24", 3, 10)], box);
    expect(shapes.max).toBe(10);
    // Plot: x 10..130 (40 a slot), y 10..110.
    expect(shapes.bars.map((b) => [b.x, b.width, b.y, b.height])).toEqual([
      [12, 36, 70, 40],
      [52, 36, 110, 0],
      [92, 36, 10, 100],
    ]);
    expect(shapes.points).toEqual([
      { x: 30, y: 100 },
      { x: 70, y: 110 },
      { x: 110, y: 80 },
    ]);
    expect(shapes.line).toBe("30,100 70,110 110,80");
    expect(shapes.ticks).toEqual([
      { value: 0, y: 110 },
      { value: 5, y: 60 },
      { value: 10, y: 10 },
    ]);
    expect(shapes.labels).toEqual([
      { x: 10, date: "2026-11-22", anchor: "start" },
      { x: 70, date: "2026-11-23", anchor: "middle" },
      { x: 130, date: "2026-11-24", anchor: "end" },
    ]);
  });

  it("draws an all-zero period flat on the baseline, never dividing by zero", () => {
    const shapes = chartShapes(Array.from({ length: 7 }, (_, i) => day(`2026-11-0${i + 1}`, 0, 0)));
    expect(shapes.max).toBe(1);
    const baseline = chartBox.height - chartBox.bottom;
    expect(shapes.bars.every((b) => b.height === 0 && b.y === baseline)).toBe(true);
    expect(shapes.points.every((p) => p.y === baseline && Number.isFinite(p.x))).toBe(true);
  });

  it("keeps 90 days inside the box with bars at least 1 unit wide, and one label for a single day", () => {
    const shapes = chartShapes(Array.from({ length: 90 }, (_, i) => day(`d${i}`, i % 3, i)));
    expect(shapes.bars).toHaveLength(90);
    expect(shapes.bars.at(-1)!.x + shapes.bars.at(-1)!.width).toBeLessThanOrEqual(chartBox.width - chartBox.right + 0.1);
    expect(shapes.bars.every((b) => b.width >= 1 && b.y >= chartBox.top)).toBe(true);
    expect(chartShapes([day("2026-11-24", 1, 1)]).labels).toEqual([{ x: chartBox.left, date: "2026-11-24", anchor: "start" }]);
  });
});

describe("labels and shares", () => {
  it("adds the period up", () => {
    expect(totals([day("a", 1, 2), day("b", 3, 4)])).toEqual({ conversations: 4, messages: 6 });
  });

  it("gives whole percents of helpful answers that add up to 100, or null without ratings", () => {
    expect(ratingShare({ up: 0, down: 0 })).toBeNull();
    expect(ratingShare({ up: 3, down: 1 })).toEqual({ helpful: 75, notHelpful: 25, total: 4 });
    expect(ratingShare({ up: 1, down: 2 })).toEqual({ helpful: 33, notHelpful: 67, total: 3 });
    expect(ratingShare({ up: 2, down: 0 })).toEqual({ helpful: 100, notHelpful: 0, total: 2 });
  });

  it("writes a UTC day as 'MMM d'", () => {
    expect(shortDate("2026-11-04")).toBe("Nov 4");
    expect(shortDate("2026-01-31")).toBe("Jan 31");
    expect(shortDate("soon")).toBe("soon");
  });
});

describe("handoffTotals", () => {
  const day = (date: string, requested: number, taken: number, medianFirstReplyMs: number | null) => ({ date, requested, taken, medianFirstReplyMs });
  it("adds up requests and takeovers, and finds the period's middle reply time weighted by takeovers", () => {
    const t = handoffTotals([day("2026-01-01", 3, 1, 60_000), day("2026-01-02", 2, 3, 120_000), day("2026-01-03", 0, 0, null)]);
    expect(t).toEqual({ requested: 5, taken: 4, medianFirstReplyMs: 120_000 });
  });
  it("has no reply time when no day had one", () => {
    expect(handoffTotals([day("2026-01-01", 2, 0, null)])).toEqual({ requested: 2, taken: 0, medianFirstReplyMs: null });
    expect(handoffTotals([])).toEqual({ requested: 0, taken: 0, medianFirstReplyMs: null });
  });
});

describe("leads per day", () => {
  const box = { width: 130, height: 120, left: 10, right: 0, top: 10, bottom: 10 };
  const daily = [day("2026-11-22", 1, 4), day("2026-11-23", 0, 0), day("2026-11-24", 3, 10)];

  it("lines the server's days up with the chart's (a missing day is 0, a day outside the period left out)", () => {
    expect(leadsPerDay(daily, [{ date: "2026-11-24", count: 2 }, { date: "2026-11-22", count: 1 }, { date: "2026-10-01", count: 9 }])).toEqual([1, 0, 2]);
    expect(leadsPerDay(daily, [])).toEqual([0, 0, 0]);
  });

  it("puts the leads on the same axis, which grows when they outnumber the messages", () => {
    expect(chartShapes(daily, box, [0, 0, 30]).max).toBe(50);
    const max = chartShapes(daily, box, [1, 0, 2]).max;
    expect(max).toBe(10);
    expect(leadsLine([1, 0, 2], max, box)).toEqual({
      points: [
        { x: 30, y: 100 },
        { x: 70, y: 110 },
        { x: 110, y: 90 },
      ],
      line: "30,100 70,110 110,90",
    });
  });
});
