import { budgetMessages, handoffLimits, handoffMessages, widgetMessages, type ErrorCode, type WidgetRefusalReason, type WidgetRemaining } from "../../../contract";
import { secondsToMonthEnd } from "../../budgets/budget-math";
import { retryAfterSeconds } from "../rate-limit";
import type { IpThrottleResult } from "../ip-throttle";
import type { Admission } from "./widget-limits";

export type MessageRefusal = {
  ok: false;
  error: string;
  reason: WidgetRefusalReason;
  /** The HTTP refusal: the SSE route answers it before any stream starts. */
  code: ErrorCode;
  retryAfter?: number;
  /** Known after a limit refused the message: sent as `remaining-messages` on the socket. */
  remaining?: WidgetRemaining;
};

export type MessageAdmission = { ok: true; remaining: WidgetRemaining } | MessageRefusal;

/**
 * Whether a visitor message may be answered, in the order the assistant's own object
 * (AssistantHub.beginTurn) decides it: attachments only when the owner allows them
 * (`attachmentsRefusal`), then the per-IP throttle (`ipRefusal`, the Rate Limiting binding across
 * every assistant: services/ip-throttle.ts), then the session's counter, the network's share of the assistant's day and the
 * day's counter (`toMessageAdmission` of the hub's `VisitorStore.admit`, exact under concurrency),
 * with the monthly budgets checked just before them in the same step (`budgetRefusal`).
 * Nothing is counted for a refused message but the per-IP throttle.
 */
export function attachmentsRefusal(fileCount: number, allowAttachments: boolean): MessageRefusal | null {
  if (fileCount > 0 && !allowAttachments) return { ok: false, error: widgetMessages.attachmentsNotAllowed, reason: "invalid", code: "VALIDATION_ERROR" };
  return null;
}

/**
 * While a person was asked for or has the conversation, the visitor has sent
 * handoffLimits.maxUnansweredMessages in a row since the person last wrote (or since the request):
 * the next waits for the person's reply (such messages count against no other limit).
 */
export function waitForPersonRefusal(): MessageRefusal {
  return { ok: false, error: handoffMessages.waitForPerson(handoffLimits.maxUnansweredMessages), reason: "rate-limited", code: "RATE_LIMITED" };
}

/** A monthly budget (the assistant's, or all the owner's assistants') is used up and pauses the assistant until the UTC month ends. */
export function budgetRefusal(now = Date.now()): MessageRefusal {
  return { ok: false, error: budgetMessages.budgetReached, reason: "budget-reached", code: "RATE_LIMITED", retryAfter: secondsToMonthEnd(now) };
}

export function ipRefusal(ip: IpThrottleResult, now = Date.now()): MessageRefusal | null {
  if (ip.allowed) return null;
  return { ok: false, error: widgetMessages.tooManyMessages, reason: "rate-limited", code: "RATE_LIMITED", retryAfter: retryAfterSeconds(ip, now) };
}

/** The counters' verdict in the widget's words (the same messages as before the move). */
export function toMessageAdmission(result: Admission, now = Date.now()): MessageAdmission {
  if (result.allowed) return { ok: true, remaining: { session: result.session.remaining, daily: result.daily.remaining } };
  if (result.refusedBy === "network") {
    return {
      ok: false,
      error: widgetMessages.networkDailyShareReached,
      reason: "rate-limited",
      code: "RATE_LIMITED",
      retryAfter: retryAfterSeconds(result.network, now),
    };
  }
  const remaining = { session: result.session.remaining, daily: result.daily?.remaining ?? 0 };
  if (result.refusedBy === "session") {
    return { ok: false, error: widgetMessages.sessionLimitReached, reason: "session-limit", code: "RATE_LIMITED", remaining: { ...remaining, session: 0 } };
  }
  return {
    ok: false,
    error: widgetMessages.dailyLimitReached,
    reason: "daily-limit",
    code: "RATE_LIMITED",
    retryAfter: result.daily ? retryAfterSeconds(result.daily, now) : undefined,
    remaining: { ...remaining, daily: 0 },
  };
}
