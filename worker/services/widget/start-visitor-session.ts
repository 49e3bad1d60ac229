import { widgetMessages, type WidgetSessionResponse } from "../../../contract";
import { visitorSessions } from "../../db/schema";
import { AppError } from "../../http/errors";
import { retryAfterSeconds } from "../rate-limit";
import type { ServiceContext } from "../context";
import type { PublicAssistantRecord } from "../public-assistants/to-public-assistant";
import { getWidgetSession } from "./get-widget-session";
import { findVisitorSession } from "./visitor-session-rows";
import { consumeIpSession } from "./widget-limits";

const USER_AGENT_CHARS = 512;

export interface StartVisitorSessionInput {
  assistant: PublicAssistantRecord;
  visitorSessionId?: string | undefined;
  referrer: string;
  locale: string;
  origin: string;
  userAgent: string;
  ip: string;
}

/**
 * POST /api/widget/sessions: resumes `visitorSessionId` when it is an open session of this
 * assistant, else starts a new one (a visitor_sessions row). Only a new session counts against
 * the per-IP throttle (429).
 */
export async function startVisitorSession({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: StartVisitorSessionInput;
}): Promise<{ created: boolean; session: WidgetSessionResponse }> {
  const { assistant } = input;
  if (input.visitorSessionId) {
    const existing = await findVisitorSession(ctx, { assistantId: assistant.id, sessionId: input.visitorSessionId });
    if (existing) return { created: false, session: await getWidgetSession({ ctx, input: { assistant, row: existing } }) };
  }
  const throttle = await consumeIpSession(ctx.env, input.ip);
  if (!throttle.allowed) {
    const retryAfter = retryAfterSeconds(throttle);
    throw new AppError("RATE_LIMITED", widgetMessages.tooManySessions, { retryAfter });
  }
  const row = {
    id: crypto.randomUUID(),
    assistantId: assistant.id,
    referrer: input.referrer,
    origin: input.origin,
    userAgent: input.userAgent.slice(0, USER_AGENT_CHARS),
    locale: input.locale,
    messageCount: 0,
    startedAt: Date.now(),
    lastMessageAt: null,
  };
  await ctx.db.insert(visitorSessions).values(row);
  return { created: true, session: await getWidgetSession({ ctx, input: { assistant, row, messages: [] } }) };
}
