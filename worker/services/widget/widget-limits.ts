import { widget, type WidgetRemaining } from "../../../contract";
import type { RateLimitResult } from "../rate-limit-window";
import type { Env } from "../../env";
import { consumeRateLimit, peekRateLimit, type Window } from "../rate-limit";

/**
 * The widget's limits. The message counters (per visitor session, per network and UTC day, per
 * assistant and UTC day) live in the assistant's own Durable Object since the move
 * (assistant/visitor-store.ts `VisitorStore.admit`: one synchronous check-and-increment, exact
 * under concurrency, no refunds needed). What stays here: the per-IP session throttle across
 * every assistant (a RateLimiter object: its window is an hour; the minute throttles are on the
 * Rate Limiting binding, services/ip-throttle.ts), the arithmetic of the network's share, the `remaining-messages`
 * frame, and the read of the legacy `widget-daily` counter the move carries over.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Legacy: the RateLimiter scope of an assistant's daily counter before the move (read once by it). */
const DAILY_SCOPE = "widget-daily";
const IP_SESSION_SCOPE = "widget-sessions:ip";

const dailyWindow = (dailyLimit: number): Window => ({ limit: dailyLimit, windowMs: DAY_MS });

/**
 * Messages one network (IP) may send an assistant per UTC day: `widget.throttles.dailyShare` of
 * its daily limit, at least its minimum, never more than the limit itself.
 */
export function networkDailyShare(dailyLimit: number): number {
  const { fraction, minimum } = widget.throttles.dailyShare;
  return Math.min(dailyLimit, Math.max(minimum, Math.floor(dailyLimit * fraction)));
}

export type Admission =
  | { allowed: true; session: RateLimitResult; daily: RateLimitResult }
  | { allowed: false; refusedBy: "session" | "daily"; session: RateLimitResult; daily: RateLimitResult | null }
  | { allowed: false; refusedBy: "network"; session: RateLimitResult; daily: null; network: RateLimitResult };

/** Messages the legacy RateLimiter counted today for the assistant (the move carries them), or null if it did not answer. */
export async function legacyDailyCount(env: Env, assistantId: string, dailyLimit: number): Promise<number | null> {
  try {
    const result = await peekRateLimit(env, DAILY_SCOPE, assistantId, dailyWindow(dailyLimit));
    return Math.max(0, dailyLimit - result.remaining);
  } catch {
    return null;
  }
}

/** `remaining-messages` data: the tighter counter and its limit (the session's on a tie). */
export function remainingFrame(remaining: WidgetRemaining, limits: { maxMessagesPerSession: number; dailyLimit: number }) {
  return remaining.daily < remaining.session
    ? { remaining: remaining.daily, limit: limits.dailyLimit }
    : { remaining: remaining.session, limit: limits.maxMessagesPerSession };
}

/** New conversations per IP across every assistant (contract `widget.throttles.sessionCreate`). */
export const consumeIpSession = (env: Env, ip: string) => consumeRateLimit(env, IP_SESSION_SCOPE, ip, widget.throttles.sessionCreate);
