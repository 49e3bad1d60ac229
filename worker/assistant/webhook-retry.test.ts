import { describe, expect, it } from "vitest";
import { webhookLimits as L } from "../../contract";
import { backoffSeconds, decideAfterAttempt, retryAfterSeconds } from "./webhook-retry";

const now = Date.UTC(2026, 0, 10, 12);
const decide = (status: number | null, extra: { retryAfter?: string; permanent?: boolean; attempt?: number; firstAttemptAt?: number } = {}) =>
  decideAfterAttempt({ outcome: { status, retryAfter: extra.retryAfter, permanent: extra.permanent }, attempt: extra.attempt ?? 1, firstAttemptAt: extra.firstAttemptAt ?? now, now, random: () => 0.5 });

describe("webhook retries", () => {
  it("backs off exponentially from the base, jittered within ±20 %, capped", () => {
    expect(backoffSeconds(1, () => 0.5)).toBe(L.baseDelaySeconds);
    expect(backoffSeconds(2, () => 0.5)).toBe(L.baseDelaySeconds * 2);
    expect(backoffSeconds(5, () => 0.5)).toBe(L.baseDelaySeconds * 16);
    expect(backoffSeconds(1, () => 0)).toBe(Math.round(L.baseDelaySeconds * 0.8));
    expect(backoffSeconds(1, () => 0.999999)).toBe(Math.round(L.baseDelaySeconds * 1.2));
    expect(backoffSeconds(40, () => 0.999999)).toBe(L.maxDelaySeconds);
    expect(backoffSeconds(15, () => 0)).toBe(Math.round(L.maxDelaySeconds * 0.8));
  });

  it("reads Retry-After as seconds or as a date", () => {
    expect(retryAfterSeconds("120", now)).toBe(120);
    expect(retryAfterSeconds(new Date(now + 90_000).toUTCString(), now)).toBe(90);
    expect(retryAfterSeconds(new Date(now - 90_000).toUTCString(), now)).toBe(0);
    expect(retryAfterSeconds("soon", now)).toBeNull();
    expect(retryAfterSeconds(null, now)).toBeNull();
  });

  it("2xx is done; other 4xx and refused redirects give up at once", () => {
    expect(decide(200)).toEqual({ kind: "done" });
    expect(decide(204)).toEqual({ kind: "done" });
    expect(decide(400)).toEqual({ kind: "gave-up" });
    expect(decide(404)).toEqual({ kind: "gave-up" });
    expect(decide(301)).toEqual({ kind: "gave-up" });
    expect(decide(null, { permanent: true })).toEqual({ kind: "gave-up" });
  });

  it("5xx, network errors and 429 retry inside the window; 429's Retry-After is honoured up to its cap", () => {
    expect(decide(500)).toEqual({ kind: "retry", delaySeconds: L.baseDelaySeconds });
    expect(decide(null, { attempt: 3 })).toEqual({ kind: "retry", delaySeconds: L.baseDelaySeconds * 4 });
    expect(decide(429, { retryAfter: "90" })).toEqual({ kind: "retry", delaySeconds: 90 });
    expect(decide(429, { retryAfter: String(L.maxRetryAfterSeconds * 3) })).toEqual({ kind: "retry", delaySeconds: L.maxRetryAfterSeconds });
    expect(decide(429)).toEqual({ kind: "retry", delaySeconds: L.baseDelaySeconds });
    expect(decide(503, { firstAttemptAt: now - L.retryWindowMs })).toEqual({ kind: "gave-up" });
    expect(decide(503, { firstAttemptAt: now - L.retryWindowMs + 1000 }).kind).toBe("retry");
  });

  it("a 429 asking for less than the backoff waits the backoff: a receiver cannot have every delivery retried each second for the whole window", () => {
    for (const retryAfter of ["0", "1", "7", "-5", "1.5", new Date(now - 90_000).toUTCString()]) {
      expect(decide(429, { retryAfter }), retryAfter).toEqual({ kind: "retry", delaySeconds: L.baseDelaySeconds });
      expect(decide(429, { retryAfter, attempt: 4 }), retryAfter).toEqual({ kind: "retry", delaySeconds: L.baseDelaySeconds * 8 });
    }
  });
});
