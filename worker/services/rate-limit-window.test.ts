import { describe, expect, it } from "vitest";
import { FixedWindowCounter } from "./rate-limit-window";

describe("FixedWindowCounter", () => {
  it("admits exactly the limit in a window, then starts over in the next one", () => {
    const c = new FixedWindowCounter();
    const results = Array.from({ length: 5 }, () => c.consume(3, 1, 1000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results[4]).toEqual({ allowed: false, remaining: 0, resetAt: 1000 });
    expect(c.consume(3, 1, 2000)).toEqual({ allowed: true, remaining: 2, resetAt: 2000 });
  });

  it("counts a call that read the clock just before the window turned in the current window", () => {
    const c = new FixedWindowCounter();
    c.consume(2, 1, 2000);
    c.consume(2, 1, 2000);
    expect(c.consume(2, 1, 1000).allowed).toBe(false);
  });

  it("refunds only in the window the cost was taken in, never below zero", () => {
    const c = new FixedWindowCounter();
    c.consume(2, 2, 1000);
    c.refund(1, 2, 1000);
    expect(c.state.count).toBe(1);
    c.consume(2, 1, 2000);
    c.refund(5, 2, 1000);
    expect(c.state).toEqual({ count: 1, resetAt: 2000 });
    c.refund(5, 2, 2000);
    expect(c.state.count).toBe(0);
  });

  it("peeks a later window as empty without changing anything", () => {
    const c = new FixedWindowCounter();
    c.consume(2, 2, 1000);
    expect(c.peek(2, 1000)).toEqual({ allowed: false, remaining: 0, resetAt: 1000 });
    expect(c.peek(2, 2000)).toEqual({ allowed: true, remaining: 2, resetAt: 2000 });
    expect(c.state).toEqual({ count: 2, resetAt: 1000 });
  });

  it("keeps a count stored before windows were recorded, in the next caller's window", () => {
    const c = new FixedWindowCounter({ count: 2, resetAt: -1 });
    expect(c.peek(3, 5000)).toEqual({ allowed: true, remaining: 1, resetAt: 5000 });
    expect(c.consume(3, 1, 5000)).toEqual({ allowed: true, remaining: 0, resetAt: 5000 });
    expect(c.consume(3, 1, 5000).allowed).toBe(false);
  });
});
