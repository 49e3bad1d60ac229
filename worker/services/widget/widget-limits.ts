import { widget, type WidgetRemaining } from "../../../contract";
import type { CounterState, RateLimitResult } from "../rate-limit-window";
import type { Env } from "../../env";
import { consumeLeasableRateLimit, consumeRateLimit, peekRateLimit, type Window } from "../rate-limit";

/**
 * The widget's limits. The message counters (per visitor session, per network and UTC day, per
 * assistant and UTC day) live in the assistant's own Durable Object since the move
 * (assistant/visitor-store.ts `VisitorStore.admit`: one synchronous check-and-increment, exact
 * under concurrency, no refunds needed). What stays here: the per-IP throttles across every
 * assistant (RateLimiter objects), the arithmetic of the network's share, the `remaining-messages`
 * frame, and the read of the legacy `widget-daily` counter the move carries over.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Legacy: the RateLimiter scope of an assistant's daily counter before the move (read once by it). */
const DAILY_SCOPE = "widget-daily";
const IP_MESSAGE_SCOPE = "widget-messages:ip";
const IP_SESSION_SCOPE = "widget-sessions:ip";
const IP_FEEDBACK_SCOPE = "widget-feedback:ip";

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

/** Per-IP throttles of the widget (contract `widget.throttles`), across every assistant. */
/**
 * The per-IP message throttle, asked by the assistant's object that then counts it while it holds
 * the lease (`holder`: the assistant's id; assistant/ip-message-leases.ts).
 */
export const consumeIpMessage = (env: Env, ip: string, holder: string, leaseWindows: number, now: number, returned: CounterState | null = null) =>
  consumeLeasableRateLimit(env, IP_MESSAGE_SCOPE, ip, widget.throttles.message, holder, leaseWindows, now, returned);
export const consumeIpSession = (env: Env, ip: string) => consumeRateLimit(env, IP_SESSION_SCOPE, ip, widget.throttles.sessionCreate);
/** Answer ratings per IP across every assistant: a counter of its own, so rating never costs the visitor a message. */
export const consumeIpFeedback = (env: Env, ip: string) => consumeRateLimit(env, IP_FEEDBACK_SCOPE, ip, widget.throttles.feedback);
