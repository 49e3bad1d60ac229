import { widget, type WidgetRemaining } from "../../../contract";
import type { RateLimitResult } from "../../durable-objects/rate-limiter";
import type { Env } from "../../env";
import { consumeRateLimit, peekRateLimit, type Window } from "../rate-limit";

/**
 * The widget's two message counters, each one RateLimiter Durable Object (exact under concurrency):
 * - per visitor session: `maxMessagesPerSession` for the session's life, named by the session id.
 *   Its window starts when the session starts and lasts `widget.sessionCounterWindowMs`; a session
 *   older than that is closed (see visitor-session-age.ts), so the counter never resets under it.
 * - per assistant and UTC day: `dailyLimit`, shared by the widget and the OpenAI-compatible API.
 * Limits are passed on every call, so an owner's change applies to the next message.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const DAILY_SCOPE = "widget-daily";
const IP_MESSAGE_SCOPE = "widget-messages:ip";
const IP_SESSION_SCOPE = "widget-sessions:ip";

export interface SessionCounterKey {
  sessionId: string;
  startedAt: number;
}

function sessionCounter(env: Env, session: SessionCounterKey) {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`widget-session:${session.sessionId}`));
  return { stub, resetAt: session.startedAt + widget.sessionCounterWindowMs };
}

const dailyWindow = (dailyLimit: number): Window => ({ limit: dailyLimit, windowMs: DAY_MS });

export type Admission =
  | { allowed: true; session: RateLimitResult; daily: RateLimitResult }
  | { allowed: false; refusedBy: "session" | "daily"; session: RateLimitResult; daily: RateLimitResult | null };

/**
 * Counts one message against the session's counter, then the assistant's daily one, one after the
 * other: with L+k simultaneous messages exactly k are refused by each counter. A message the daily
 * counter refuses gives its session count back, so a visitor is not charged for it.
 */
export async function consumeVisitorMessage(
  env: Env,
  input: { session: SessionCounterKey | null; assistantId: string; maxMessagesPerSession: number; dailyLimit: number },
): Promise<Admission> {
  let session: RateLimitResult = { allowed: true, remaining: Number.MAX_SAFE_INTEGER, resetAt: 0 };
  const counter = input.session ? sessionCounter(env, input.session) : null;
  if (counter) {
    session = await counter.stub.consume(input.maxMessagesPerSession, 1, counter.resetAt);
    if (!session.allowed) return { allowed: false, refusedBy: "session", session, daily: null };
  }
  const daily = await consumeRateLimit(env, DAILY_SCOPE, input.assistantId, dailyWindow(input.dailyLimit));
  if (!daily.allowed) {
    if (counter) session = await counter.stub.refund(1, input.maxMessagesPerSession, counter.resetAt);
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
