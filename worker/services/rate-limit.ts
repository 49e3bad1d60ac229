import { getRateLimiter } from "../durable-objects/stubs";
import type { Env } from "../env";
import { windowEnd, type RateLimitResult } from "./rate-limit-window";

export interface Window {
  limit: number;
  windowMs: number;
}

/** The counter for `scope:key` (one object across windows) and the end of the window of `now`. */
function counter(env: Env, scope: string, key: string, windowMs: number, now: number) {
  const stub = getRateLimiter(env, `${scope}:${key}`);
  return { stub, resetAt: windowEnd(now, windowMs) };
}

/** Counts one call (or `cost`) against `scope:key`; exact under concurrency (see RateLimiter). */
export async function consumeRateLimit(
  env: Env,
  scope: string,
  key: string,
  window: Window,
  cost = 1,
  now = Date.now(),
): Promise<RateLimitResult> {
  const { stub, resetAt } = counter(env, scope, key, window.windowMs, now);
  return stub.consume(window.limit, cost, resetAt);
}

/** Gives back `cost` consumed in the window of `now` (pass the `now` of the consume). */
export async function refundRateLimit(env: Env, scope: string, key: string, window: Window, cost = 1, now = Date.now()) {
  const { stub, resetAt } = counter(env, scope, key, window.windowMs, now);
  return stub.refund(cost, window.limit, resetAt);
}

/** Reads the counter without counting. */
export async function peekRateLimit(env: Env, scope: string, key: string, window: Window, now = Date.now()) {
  const { stub, resetAt } = counter(env, scope, key, window.windowMs, now);
  return stub.peek(window.limit, resetAt);
}

export const retryAfterSeconds = (result: Pick<RateLimitResult, "resetAt">, now = Date.now()) =>
  Math.max(1, Math.ceil((result.resetAt - now) / 1000));
