import { isGone } from "../../assistant/gone";
import { insightsMessages, widgetMessages, type FeedbackRating } from "../../../contract";
import { AppError, rateLimited, unauthorized } from "../../http/errors";
import { assistantHubUnavailable, reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { retryAfterSeconds } from "../rate-limit";
import { consumeIpFeedback } from "../ip-throttle";

/**
 * POST /api/widget/sessions/:id/messages/:messageId/feedback (the caller's publishable key and
 * Origin already authorised): the per-IP feedback throttle (its own counter: rating costs no
 * message), then the assistant's own object rates the answer (AssistantHub.rateAnswer). An
 * unknown or closed session is 404 sessionNotFound; a message that is not in this session is 404
 * and the visitor's own message 400, both messageNotRatable; the last rating wins. A verified
 * visitor's session needs that visitor's token (X-Visitor-Token), 401 otherwise.
 */
export async function rateVisitorAnswer({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { assistantId: string; sessionId: string; messageId: string; rating: FeedbackRating; ip: string; visitorToken?: string | undefined };
}): Promise<{ messageId: string; rating: FeedbackRating }> {
  const throttle = await consumeIpFeedback(ctx.env, input.ip);
  if (!throttle.allowed) throw rateLimited(retryAfterSeconds(throttle));
  const result = await reachAssistantHub(ctx.env, input.assistantId, widgetMessages.assistantUnreachable).insights().rate({
    sessionId: input.sessionId,
    messageId: input.messageId,
    rating: input.rating,
    visitorToken: input.visitorToken,
  });
  // Deleted between the D1 read and the hub: refused as the D1 read would have.
  if (isGone(result)) throw unauthorized(widgetMessages.unavailable);
  if (result.ok) return { messageId: result.messageId, rating: result.rating };
  if ("identity" in result) throw unauthorized(result.identity);
  switch (result.reason) {
    case "no-session":
      throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
    case "not-found":
      throw new AppError("NOT_FOUND", insightsMessages.messageNotRatable);
    case "not-answer":
      throw new AppError("VALIDATION_ERROR", insightsMessages.messageNotRatable);
    // The object's storage failed (it logged why): retryable, as when it cannot be reached.
    case "failed":
      throw assistantHubUnavailable(input.assistantId, "rateAnswer", result.reason, widgetMessages.assistantUnreachable);
  }
}
