import { webhookLimits as L } from "../../contract";

/**
 * What follows one webhook delivery attempt (pure, so it is unit-tested): done on 2xx; a retry
 * of network errors, timeouts, 5xx and 429 while the retry window since the first attempt lasts
 * (exponential backoff with jitter from `baseDelaySeconds`, capped at `maxDelaySeconds`; a 429's
 * Retry-After, in seconds or as a date, honoured up to `maxRetryAfterSeconds` when it asks for
 * longer than the backoff, never for less: a receiver cannot have us retry each second); given up at once
 * on any other status, on a refused redirect, or once the window has passed.
 */

export interface AttemptOutcome {
  /** The HTTP status; null when no response came (network error, timeout, refused redirect). */
  status: number | null;
  /** The 429's Retry-After header as received, if any. */
  retryAfter?: string | null | undefined;
  /** A failure that no retry can change (a redirect to a refused address, too many redirects). */
  permanent?: boolean | undefined;
}

export type AttemptDecision = { kind: "done" } | { kind: "retry"; delaySeconds: number } | { kind: "gave-up" };

/** The wait before attempt `attempt + 1` after `attempt` failures: base·2^(attempt−1), ±20 % jitter, capped. */
export function backoffSeconds(attempt: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 20);
  const base = Math.min(L.baseDelaySeconds * 2 ** exponent, L.maxDelaySeconds);
  const jittered = base * (0.8 + 0.4 * random());
  return Math.max(1, Math.min(L.maxDelaySeconds, Math.round(jittered)));
}

/** A Retry-After header (delta seconds or an HTTP date) in seconds from `now`; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null | undefined, now: number): number | null {
  const value = header?.trim();
  if (!value || value.length > 64) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

export function decideAfterAttempt(input: { outcome: AttemptOutcome; attempt: number; firstAttemptAt: number; now: number; random?: () => number }): AttemptDecision {
  const { status } = input.outcome;
  if (status !== null && status >= 200 && status < 300) return { kind: "done" };
  const retryable = !input.outcome.permanent && (status === null || status === 429 || status >= 500);
  if (!retryable) return { kind: "gave-up" };
  if (input.now - input.firstAttemptAt >= L.retryWindowMs) return { kind: "gave-up" };
  const backoff = backoffSeconds(input.attempt, input.random);
  const asked = status === 429 ? retryAfterSeconds(input.outcome.retryAfter, input.now) : null;
  // A Retry-After may lengthen the wait (up to its cap), never shorten it below the backoff.
  const delaySeconds = asked !== null ? Math.max(backoff, Math.min(asked, L.maxRetryAfterSeconds)) : backoff;
  return { kind: "retry", delaySeconds };
}
