/**
 * The pure half of the Insights panel (insights-panel.tsx): the chart's scale and shapes, the
 * share of helpful answers, and short labels. No React, no DOM: unit-tested beside it.
 */
import type { InsightsResponse } from "../../../../contract";

export type DailyRow = InsightsResponse["daily"][number];

export interface ChartBox {
  width: number;
  height: number;
  /** Room left of the plot for the y labels, and below it for the x labels. */
  left: number;
  bottom: number;
  top: number;
  right: number;
}

export const chartBox: ChartBox = { width: 640, height: 220, left: 36, bottom: 26, top: 10, right: 8 };

/** The smallest "nice" number (1, 2 or 5 × 10^k) at or above `value`, at least 1: the top of the y axis. */
export function niceMax(value: number): number {
  if (!Number.isFinite(value) || value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** The y axis' labelled values, bottom to top: 0, the middle when it is a whole number, and the top. */
export function yTicks(max: number): number[] {
  const middle = max / 2;
  return Number.isInteger(middle) && middle > 0 ? [0, middle, max] : [0, max];
}

export interface ChartShapes {
  max: number;
  /** One bar per day (messages), left to right. */
  bars: { x: number; y: number; width: number; height: number; date: string }[];
  /** The conversations line: SVG points, and each day's point. */
  line: string;
  points: { x: number; y: number }[];
  ticks: { value: number; y: number }[];
  /** Up to three dates under the plot: the first, the middle and the last day. */
  labels: { x: number; date: string; anchor: "start" | "middle" | "end" }[];
}

/**
 * Where each day's messages bar and conversations point sit in `box`: one slot per day, bars
 * scaled to the largest of the series (messages, conversations, and the leads when given; rounded up
 * by `niceMax`), so all share one axis.
 */
export function chartShapes(daily: readonly DailyRow[], box: ChartBox = chartBox, leads: readonly number[] = []): ChartShapes {
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const max = niceMax(Math.max(0, ...daily.map((d) => Math.max(d.messages, d.conversations)), ...leads));
  const slot = daily.length ? plotWidth / daily.length : plotWidth;
  const gap = Math.min(4, slot * 0.25);
  const yOf = (value: number) => box.top + plotHeight - (Math.max(0, value) / max) * plotHeight;
  const bars = daily.map((d, i) => {
    const y = yOf(d.messages);
    return { x: box.left + i * slot + gap / 2, y, width: Math.max(1, slot - gap), height: box.top + plotHeight - y, date: d.date };
  });
  const points = daily.map((d, i) => ({ x: box.left + i * slot + slot / 2, y: yOf(d.conversations) }));
  const round = (n: number) => Math.round(n * 10) / 10;
  const last = daily.length - 1;
  const labelAt = [0, Math.floor(last / 2), last].filter((v, i, all) => v >= 0 && all.indexOf(v) === i);
  return {
    max,
    bars: bars.map((b) => ({ ...b, x: round(b.x), y: round(b.y), width: round(b.width), height: round(b.height) })),
    points: points.map((p) => ({ x: round(p.x), y: round(p.y) })),
    line: points.map((p) => `${round(p.x)},${round(p.y)}`).join(" "),
    ticks: yTicks(max).map((value) => ({ value, y: round(yOf(value)) })),
    labels: labelAt.map((i) => ({
      x: round(i === 0 ? box.left : i === last ? box.width - box.right : points[i]!.x),
      date: daily[i]!.date,
      anchor: i === 0 ? "start" : i === last ? "end" : "middle",
    })),
  };
}

export type LeadsDay = NonNullable<InsightsResponse["leads"]>[number];

/**
 * Each day's leads, in the order of `daily` (a day the server did not list counts 0; a day outside
 * the period is left out): the chart's third series and the table's column.
 */
export function leadsPerDay(daily: readonly DailyRow[], leads: readonly LeadsDay[]): number[] {
  const byDate = new Map<string, number>();
  for (const l of leads) byDate.set(l.date, (byDate.get(l.date) ?? 0) + Math.max(0, l.count));
  return daily.map((d) => byDate.get(d.date) ?? 0);
}

/** The leads' line on the chart's axis (`max` from chartShapes): SVG points, one per day. */
export function leadsLine(counts: readonly number[], max: number, box: ChartBox = chartBox): { line: string; points: { x: number; y: number }[] } {
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const slot = counts.length ? plotWidth / counts.length : plotWidth;
  const round = (n: number) => Math.round(n * 10) / 10;
  const points = counts.map((c, i) => ({
    x: round(box.left + i * slot + slot / 2),
    y: round(box.top + plotHeight - (Math.min(Math.max(0, c), max) / max) * plotHeight),
  }));
  return { points, line: points.map((p) => `${p.x},${p.y}`).join(" ") };
}

/** The period's totals (the chart's label). */
export function totals(daily: readonly DailyRow[]): { conversations: number; messages: number } {
  return daily.reduce((t, d) => ({ conversations: t.conversations + d.conversations, messages: t.messages + d.messages }), { conversations: 0, messages: 0 });
}

/** Whole percents of helpful and not helpful ratings that add up to 100 (null without ratings). */
export function ratingShare(feedback: InsightsResponse["feedback"]): { helpful: number; notHelpful: number; total: number } | null {
  const total = feedback.up + feedback.down;
  if (total <= 0) return null;
  const helpful = Math.round((feedback.up / total) * 100);
  return { helpful, notHelpful: 100 - helpful, total };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `YYYY-MM-DD` (a UTC day of the insights) as 'MMM d' ('Nov 24'); anything else as is. */
export function shortDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${month} ${Number(m[3])}` : date;
}

export type HandoffDay = NonNullable<InsightsResponse["handoffs"]>[number];

/**
 * A period's handoffs: requests and takeovers added up, and the time to the first human reply over
 * the period, read from the days' medians, each weighted by its takeovers (the server gives no
 * period median; a day without a reply has none).
 */
export function handoffTotals(days: readonly HandoffDay[]): { requested: number; taken: number; medianFirstReplyMs: number | null } {
  let requested = 0;
  let taken = 0;
  const weighted: { ms: number; weight: number }[] = [];
  for (const d of days) {
    requested += d.requested;
    taken += d.taken;
    if (d.medianFirstReplyMs !== null) weighted.push({ ms: d.medianFirstReplyMs, weight: Math.max(1, d.taken) });
  }
  if (!weighted.length) return { requested, taken, medianFirstReplyMs: null };
  weighted.sort((a, b) => a.ms - b.ms);
  const half = weighted.reduce((n, w) => n + w.weight, 0) / 2;
  let seen = 0;
  for (const w of weighted) {
    seen += w.weight;
    if (seen >= half) return { requested, taken, medianFirstReplyMs: w.ms };
  }
  return { requested, taken, medianFirstReplyMs: weighted[weighted.length - 1]!.ms };
}
