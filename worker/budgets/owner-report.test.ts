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

/** The object's alarm as the scheduler would run it: `send` once the time `add` answered has come. */
async function reportWhenDue(reports$: OwnerBudgetReports, at: number) {
  await vi.advanceTimersByTimeAsync(Math.max(0, at - Date.now()));
  await reports$.send("a1", "u1");
}

describe("an assistant's reports to its owner's all-assistants budget", () => {
  it("reports a message counted at 23:59:59 UTC for its month, even when the report leaves after midnight", async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 30, 23, 59, 59, 900) });
    const { reports, reports$, answer } = setup({ "2026-11": 7, "2026-12": 1 });
    const first = reportWhenDue(reports$, reports$.add()); // message 6 of November, on its way
    await vi.advanceTimersByTimeAsync(0);
    expect(reports).toHaveLength(1);
    const second = reports$.add(); // message 7, counted in November while the first report waits
    vi.setSystemTime(Date.UTC(2026, 11, 1, 0, 0, 0, 200)); // midnight passes before the room answers
    answer();
    await first;
    // At most one report a second: the next leaves a second after the first, with the latest count.
    expect(second - Date.UTC(2026, 10, 30, 23, 59, 59, 900)).toBeGreaterThanOrEqual(1000);
    const next = reportWhenDue(reports$, second);
    await vi.waitFor(() => expect(reports).toHaveLength(2));
    answer();
    await next;
    expect(reports).toEqual([
      { month: "2026-11", used: 7 },
      { month: "2026-11", used: 7 },
    ]);
    // A message counted in December is reported for December.
    const december = reportWhenDue(reports$, reports$.add());
    await vi.waitFor(() => expect(reports).toHaveLength(3));
    answer();
    await december;
    expect(reports[2]).toEqual({ month: "2026-12", used: 1 });
  });

  it("sends one report a second for a busy assistant, not one per message", async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 10, 12, 0, 0) });
    const { reports, reports$, answer } = setup({ "2026-11": 40 });
    let due: number | null = null;
    for (let i = 0; i < 20; i++) {
      const at = reports$.add();
      due = due === null || at < due ? at : due;
      // The alarm runs the report once its time has come (the scheduler keeps the sooner time).
      if (due <= Date.now()) {
        const sent = reports$.send("a1", "u1");
        answer();
        await sent;
        due = null;
      }
      await vi.advanceTimersByTimeAsync(100);
    }
    // 2 s of messages, ten a second: the first at once, then one a second.
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports.length).toBeLessThanOrEqual(3);
  });
});
