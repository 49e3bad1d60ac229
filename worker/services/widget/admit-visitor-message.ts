import { widgetMessages, type ErrorCode, type WidgetRefusalReason, type WidgetRemaining } from "../../../contract";
import type { ServiceContext } from "../context";
import type { PublicAssistantRecord } from "../public-assistants/to-public-assistant";
import { retryAfterSeconds } from "../rate-limit";
import { consumeIpMessage, consumeVisitorMessage } from "./widget-limits";

export type MessageAdmission =
  | { ok: true; remaining: WidgetRemaining }
  | {
      ok: false;
      error: string;
      reason: WidgetRefusalReason;
      /** The HTTP refusal: the SSE route answers it before any stream starts. */
      code: ErrorCode;
      retryAfter?: number;
      /** Known after a limit refused the message: sent as `remaining-messages` on the socket. */
      remaining?: WidgetRemaining;
    };

/**
 * Decides whether a visitor message may be answered, counting it when it may: attachments only
 * when the owner allows them, then the per-IP throttle, then the session's counter, the network's
 * share of the assistant's day and the day's counter (exact under concurrency: widget-limits.ts).
 * Nothing is counted for a refused message but the per-IP throttle.
 */
export async function admitVisitorMessage({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { assistant: PublicAssistantRecord; session: { id: string; startedAt: number }; ip: string; fileCount: number };
}): Promise<MessageAdmission> {
  const { assistant } = input;
  if (input.fileCount > 0 && !assistant.config.allowAttachments) {
    return { ok: false, error: widgetMessages.attachmentsNotAllowed, reason: "invalid", code: "VALIDATION_ERROR" };
  }
  const ip = await consumeIpMessage(ctx.env, input.ip);
  if (!ip.allowed) {
    return { ok: false, error: widgetMessages.tooManyMessages, reason: "rate-limited", code: "RATE_LIMITED", retryAfter: retryAfterSeconds(ip) };
  }
  const result = await consumeVisitorMessage(ctx.env, {
    session: { sessionId: input.session.id, startedAt: input.session.startedAt },
    assistantId: assistant.id,
    maxMessagesPerSession: assistant.config.maxMessagesPerSession,
    dailyLimit: assistant.config.dailyLimit,
    ip: input.ip,
  });
  if (result.allowed) return { ok: true, remaining: { session: result.session.remaining, daily: result.daily.remaining } };
  if (result.refusedBy === "network") {
    return {
      ok: false,
      error: widgetMessages.networkDailyShareReached,
      reason: "rate-limited",
      code: "RATE_LIMITED",
      retryAfter: retryAfterSeconds(result.network),
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
    retryAfter: result.daily ? retryAfterSeconds(result.daily) : undefined,
    remaining: { ...remaining, daily: 0 },
  };
}
