import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { consumeRateLimit, peekRateLimit } from "../../worker/services/rate-limit";
import { evictDurableObject } from "./helpers";

/** The RateLimiter object: one per scope and key, living across its fixed windows. */
describe("RateLimiter across windows", () => {
  const window = { limit: 2, windowMs: 60 * 60 * 1000 };

  it("admits exactly the limit in a window and starts over in the next, in the same object", async () => {
    const key = crypto.randomUUID();
    const now = Date.now();
    const first = await Promise.all([1, 2, 3].map(() => consumeRateLimit(env, "test", key, window, 1, now)));
    expect(first.map((r) => r.allowed).sort()).toEqual([false, true, true]);
    const next = await consumeRateLimit(env, "test", key, window, 1, now + window.windowMs);
    expect(next.allowed).toBe(true);
    expect(next.remaining).toBe(1);
  });

  it("an alarm left by an earlier window does not erase a later window's count", async () => {
    const key = crypto.randomUUID();
    const now = Date.now();
    await consumeRateLimit(env, "test", key, window, 1, now - window.windowMs); // the alarm: end of that window
    await consumeRateLimit(env, "test", key, window, 2, now);
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`test:${key}`));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const after = await peekRateLimit(env, "test", key, window, now);
    expect(after).toMatchObject({ allowed: false, remaining: 0 });
    expect((await consumeRateLimit(env, "test", key, window, 1, now)).allowed).toBe(false);
  });

  it("forgets a counter idle for an hour after its last window, and only then", async () => {
    const key = crypto.randomUUID();
    const minute = { limit: 2, windowMs: 60 * 1000 };
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`test:${key}`));
    const longAgo = Date.now() - 2 * 60 * 60 * 1000;
    // Its idle hour is already over: the alarm is due at once (run here if it has not run yet).
    await consumeRateLimit(env, "test", key, minute, 2, longAgo);
    await runDurableObjectAlarm(stub);
    expect((await peekRateLimit(env, "test", key, minute, longAgo)).remaining).toBe(2);
    // A window that ended a minute ago is kept: its alarm waits for the idle hour.
    const recent = Date.now() - 2 * 60 * 1000;
    await consumeRateLimit(env, "test", key, minute, 2, recent);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await peekRateLimit(env, "test", key, minute, recent)).remaining).toBe(0);
  });
});

describe("RateLimiter with its alarm in memory", () => {
  it("admits exactly the limit under concurrency on a fresh object", async () => {
    const key = crypto.randomUUID();
    const window = { limit: 5, windowMs: 60_000 };
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 20 }, () => consumeRateLimit(env, "test", key, window, 1, now)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it("an instance that lost alarmAt (evicted) keeps the stored alarm, and that alarm keeps a live count", async () => {
    const key = crypto.randomUUID();
    const window = { limit: 3, windowMs: 60_000 };
    const limiter = () => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`test:${key}`));
    const now = Date.now();
    await consumeRateLimit(env, "test", key, window, 1, now);
    const armed = await runInDurableObject(limiter(), (_i, state) => state.storage.getAlarm());
    expect(armed).not.toBeNull();
    // A fresh instance (the old one evicted) has no alarm in memory; the stored alarm is still there.
    await evictDurableObject(limiter());
    const stub = limiter();
    await consumeRateLimit(env, "test", key, window, 2, now);
    expect(await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())).toBe(armed);
    // The alarm (run early) keeps the live window and re-arms.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await peekRateLimit(env, "test", key, window, now)).remaining).toBe(0);
    expect(await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())).not.toBeNull();
    expect((await consumeRateLimit(env, "test", key, window, 1, now)).allowed).toBe(false);
  });
});
