import { widget, type WidgetRemaining } from "../../../contract";
import type { RateLimitResult } from "../rate-limit-window";
import type { Env } from "../../env";
import { consumeRateLimit, peekRateLimit, refundRateLimit, type Window } from "../rate-limit";

/**
 * The widget's message counters, each one RateLimiter Durable Object (exact under concurrency):
 * - per visitor session: `maxMessagesPerSession` for the session's life, named by the session id.
 *   Its window starts when the session starts and lasts `widget.sessionCounterWindowMs`; a session
 *   older than that is closed (see visitor-session-age.ts), so the counter never resets under it.
 * - per assistant, IP and UTC day (widget visitors only): the network's share of `dailyLimit`
 *   (`networkDailyShare`), so one network cannot use up the day for every other visitor.
 * - per assistant and UTC day: `dailyLimit`, shared by the widget and the OpenAI-compatible API.
 * Limits are passed on every call, so an owner's change applies to the next message.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const DAILY_SCOPE = "widget-daily";
const IP_MESSAGE_SCOPE = "widget-messages:ip";
const IP_SESSION_SCOPE = "widget-sessions:ip";
const IP_DAILY_SHARE_SCOPE = "widget-daily-share:ip";

export interface SessionCounterKey {
  sessionId: string;
  startedAt: number;
}

function sessionCounter(env: Env, session: SessionCounterKey) {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`widget-session:${session.sessionId}`));
  return { stub, resetAt: session.startedAt + widget.sessionCounterWindowMs };
}

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

/**
 * Counts one message against the session's counter, then (for a widget visitor, `ip` given) the
 * network's share of the day, then the assistant's daily counter, one after the other: with L+k
 * simultaneous messages exactly k are refused by each counter. A refused message gives back what
 * the earlier counters took, so a visitor is not charged for it; until that refund lands (one
 * Durable Object call later) a concurrent message may be refused by the earlier counter, so the
 * final counts are exact while, for that moment, one message too many can be refused, never admitted.
 */
export async function consumeVisitorMessage(
  env: Env,
  input: { session: SessionCounterKey | null; assistantId: string; maxMessagesPerSession: number; dailyLimit: number; ip?: string },
): Promise<Admission> {
  const now = Date.now();
  let session: RateLimitResult = { allowed: true, remaining: Number.MAX_SAFE_INTEGER, resetAt: 0 };
  const counter = input.session ? sessionCounter(env, input.session) : null;
  const refundSession = async () => {
    if (counter) session = await counter.stub.refund(1, input.maxMessagesPerSession, counter.resetAt);
  };
  if (counter) {
    session = await counter.stub.consume(input.maxMessagesPerSession, 1, counter.resetAt);
    if (!session.allowed) return { allowed: false, refusedBy: "session", session, daily: null };
  }
  const share = input.ip === undefined ? null : { key: `${input.assistantId}:${input.ip}`, window: dailyWindow(networkDailyShare(input.dailyLimit)) };
  if (share) {
    const network = await consumeRateLimit(env, IP_DAILY_SHARE_SCOPE, share.key, share.window, 1, now);
    if (!network.allowed) {
      await refundSession();
      return { allowed: false, refusedBy: "network", session, daily: null, network };
    }
  }
  const daily = await consumeRateLimit(env, DAILY_SCOPE, input.assistantId, dailyWindow(input.dailyLimit), 1, now);
  if (!daily.allowed) {
    await refundSession();
    if (share) await refundRateLimit(env, IP_DAILY_SHARE_SCOPE, share.key, share.window, 1, now);
    return { allowed: false, refusedBy: "daily", session, daily };
  }
  return { allowed: true, session, daily };
}

/** Messages left in the session and today, without counting one. */
export async function peekVisitorRemaining(
  env: Env,
  input: { session: SessionCounterKey; assistantId: string; maxMessagesPerSession: number; dailyLimit: number },
): Promise<WidgetRemaining> {
  const counter = sessionCounter(env, input.session);
  const [session, daily] = await Promise.all([
    counter.stub.peek(input.maxMessagesPerSession, counter.resetAt),
    peekRateLimit(env, DAILY_SCOPE, input.assistantId, dailyWindow(input.dailyLimit)),
  ]);
  return { session: session.remaining, daily: daily.remaining };
}

/** `remaining-messages` data: the tighter counter and its limit (the session's on a tie). */
export function remainingFrame(remaining: WidgetRemaining, limits: { maxMessagesPerSession: number; dailyLimit: number }) {
  return remaining.daily < remaining.session
    ? { remaining: remaining.daily, limit: limits.dailyLimit }
    : { remaining: remaining.session, limit: limits.maxMessagesPerSession };
}

/** Per-IP throttles of the widget (contract `widget.throttles`), across every assistant. */
export const consumeIpMessage = (env: Env, ip: string) => consumeRateLimit(env, IP_MESSAGE_SCOPE, ip, widget.throttles.message);
export const consumeIpSession = (env: Env, ip: string) => consumeRateLimit(env, IP_SESSION_SCOPE, ip, widget.throttles.sessionCreate);
