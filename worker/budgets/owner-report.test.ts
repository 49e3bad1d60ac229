import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../env";
import { OwnerBudgetReports } from "./owner-report";

/** A hub's storage with this month's and last month's counts, and an owner's room that records reports. */
function setup(counts: Record<string, number>) {
  const reports: { month: string; used: number }[] = [];
  let answer: () => void = () => undefined;
  const room = {
    budgetReport: vi.fn(async (r: { month: string; used: number }) => {
      reports.push({ month: r.month, used: r.used });
      await new Promise<void>((resolve) => (answer = resolve));
      return { ok: true, paused: false };
    }),
  };
  const env = { CHAT_ROOM: { idFromName: (n: string) => n, get: () => room } } as unknown as Env;
  const sql = {
    exec: (query: string, month: string) => ({
      toArray: () => (query.startsWith("SELECT used") && counts[month] !== undefined ? [{ used: counts[month] }] : []),
    }),
  } as unknown as DurableObjectStorage["sql"];
  return { reports, reports$: new OwnerBudgetReports(env, { sql }), answer: () => answer() };
}

afterEach(() => vi.useRealTimers());

describe("an assistant's reports to its owner's all-assistants budget", () => {
  it("reports a message counted at 23:59:59 UTC for its month, even when the report leaves after midnight", async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 30, 23, 59, 59, 900) });
    const { reports, reports$, answer } = setup({ "2026-11": 7, "2026-12": 1 });
    const first = reports$.report("a1", "u1"); // message 6 of November, on its way
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    void reports$.report("a1", "u1"); // message 7, counted in November while the first report waits
    vi.setSystemTime(Date.UTC(2026, 11, 1, 0, 0, 0, 200)); // midnight passes before the room answers
    answer();
    // At most one report a second: the next leaves a second after the first, with the latest count.
    await vi.advanceTimersByTimeAsync(699);
    expect(reports).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(reports).toHaveLength(2));
    answer();
    await first;
    expect(reports).toEqual([
      { month: "2026-11", used: 7 },
      { month: "2026-11", used: 7 },
    ]);
    // A message counted in December is reported for December.
    void reports$.report("a1", "u1");
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(reports).toHaveLength(3));
    answer();
    expect(reports[2]).toEqual({ month: "2026-12", used: 1 });
  });

  it("sends one report a second for a busy assistant, not one per message", async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 10, 12, 0, 0) });
    const { reports, reports$, answer } = setup({ "2026-11": 40 });
    for (let i = 0; i < 20; i++) {
      void reports$.report("a1", "u1");
      answer();
      await vi.advanceTimersByTimeAsync(100);
    }
    // 2 s of messages, ten a second: the first at once, then one a second.
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports.length).toBeLessThanOrEqual(3);
  });
});
