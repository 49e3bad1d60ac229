import { describe, expect, it } from "vitest";
import { TypingThrottle } from "./visitor-typing";

describe("TypingThrottle", () => {
  it("passes one frame per period, and a stop right after a start", () => {
    let now = 1_000;
    const throttle = new TypingThrottle(2_000, () => now);
    expect(throttle.take(true)).toBe(true);
    now += 100;
    expect(throttle.take(true)).toBe(false);
    expect(throttle.take(false)).toBe(true);
    // A second stop, or a start again within the period: dropped.
    expect(throttle.take(false)).toBe(false);
    expect(throttle.take(true)).toBe(false);
    now += 2_000;
    expect(throttle.take(true)).toBe(true);
  });

  it("a loop of alternating frames passes at most two per period", () => {
    let now = 0;
    const throttle = new TypingThrottle(2_000, () => now);
    let passed = 0;
    for (let i = 0; i < 1_000; i++) {
      if (throttle.take(i % 2 === 0)) passed += 1;
      now += 10; // 10 s in all: five periods
    }
    expect(passed).toBeLessThanOrEqual(10);
    expect(passed).toBeGreaterThanOrEqual(5);
  });
});
