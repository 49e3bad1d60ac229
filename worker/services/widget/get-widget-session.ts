import type { WidgetSessionResponse } from "../../../contract";
import type { ServiceContext } from "../context";
import type { PublicAssistantRecord } from "../public-assistants/to-public-assistant";
import { listSessionMessages, toWidgetMessage, type VisitorSessionRow } from "./visitor-session-rows";
import { peekVisitorRemaining } from "./widget-limits";

/** A session as the widget reloads it: its messages (oldest first) and what the visitor may still send. */
export async function getWidgetSession({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { assistant: PublicAssistantRecord; row: Pick<VisitorSessionRow, "id" | "startedAt">; messages?: [] };
}): Promise<WidgetSessionResponse> {
  const { assistant, row } = input;
  const [messages, remaining] = await Promise.all([
    input.messages ?? listSessionMessages(ctx, row.id),
    peekVisitorRemaining(ctx.env, {
      session: { sessionId: row.id, startedAt: row.startedAt },
      assistantId: assistant.id,
      maxMessagesPerSession: assistant.config.maxMessagesPerSession,
      dailyLimit: assistant.config.dailyLimit,
    }),
  ]);
  return { sessionId: row.id, messages: messages.map((m) => toWidgetMessage(m, assistant.showSources)), remaining };
}
