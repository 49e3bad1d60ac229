import type { z } from "zod";
import { widget, widgetMessages, type WidgetMessage, type WidgetRemaining, type WidgetServerFrame, type widgetSendMessageData } from "../../contract";
import type { ServiceContext } from "../services/context";
import type { PublicAssistantRecord } from "../services/public-assistants/to-public-assistant";
import { listSessionMessages, saveVisitorMessage, toWidgetMessage, type VisitorSessionRow } from "../services/widget/visitor-session-rows";
import { remainingFrame } from "../services/widget/widget-limits";
import { answerFromKnowledge } from "./answer";

export type VisitorMessageInput = z.output<typeof widgetSendMessageData>;

export interface VisitorTurnDeps {
  ctx: ServiceContext;
  /** Sends a frame to the visitor: an SSE event, or a socket frame to every tab of the session. */
  emit: (frame: WidgetServerFrame) => void;
  /** Aborted by `stop`: the answer keeps its text so far (status stopped). */
  signal: AbortSignal;
  now?: () => number;
}

export interface VisitorTurnInput {
  assistant: PublicAssistantRecord;
  session: Pick<VisitorSessionRow, "id" | "startedAt" | "locale">;
  message: VisitorMessageInput;
  /** What the admission left (admit-visitor-message.ts): sent as `remaining-messages` at the end. */
  remaining: WidgetRemaining;
}

/**
 * One admitted visitor message, whatever the transport: saves it (new-message echoing
 * clientMessageId), announces the answer (thinking), streams it (message-delta), saves it with its
 * sources (new-message) and ends with remaining-messages. A failed answer sends message-error with
 * its partial text and is not saved: the visitor's message stays, and it was counted. Never throws.
 */
export async function runVisitorTurn(deps: VisitorTurnDeps, input: VisitorTurnInput): Promise<void> {
  const { ctx, emit } = deps;
  const now = deps.now ?? Date.now;
  const { assistant, session, message } = input;
  const { clientMessageId } = message;
  const showSources = assistant.showSources;
  const fail = (error: string, extra: { messageId?: string; message?: WidgetMessage } = {}) =>
    emit({ event: "message-error", data: { error, reason: "reply-failed", chatId: session.id, clientMessageId, ...extra } });
  try {
    const history = (await listSessionMessages(ctx, session.id, widget.historyMessages)).map((m) => ({ role: m.role, content: m.content }));
    const askedAt = now();
    const saved = await saveVisitorMessage(ctx, {
      sessionId: session.id,
      role: "user",
      content: message.content,
      files: message.files.map((f) => ({ name: f.name })),
      sources: [],
      at: askedAt,
    });
    emit({ event: "new-message", data: { message: toWidgetMessage(saved, showSources), clientMessageId } });

    const messageId = crypto.randomUUID();
    emit({ event: "thinking", data: { chatId: session.id, messageId, clientMessageId } });
    const answer = await answerFromKnowledge({
      env: ctx.env,
      assistant,
      question: message.content,
      history,
      files: message.files,
      locale: session.locale,
      signal: deps.signal,
      onDelta: (delta, offset) => emit({ event: "message-delta", data: { chatId: session.id, messageId, delta, offset } }),
    });
    if (answer.outcome.status === "error") {
      const partial: WidgetMessage = {
        id: messageId,
        chatId: session.id,
        role: "assistant",
        content: { type: "text", data: answer.text },
        files: [],
        timestamp: now(),
        status: "error",
        error: answer.outcome.error,
      };
      fail(answer.outcome.error, { messageId, message: partial });
      return;
    }
    // Sources are always kept for the owner's history; the visitor sees them when the owner chose so.
    const reply = await saveVisitorMessage(ctx, {
      id: messageId,
      sessionId: session.id,
      role: "assistant",
      content: answer.text,
      files: [],
      sources: answer.sources,
      at: Math.max(now(), askedAt + 1),
    });
    const final = { ...toWidgetMessage(reply, showSources), status: answer.outcome.status };
    emit({ event: "new-message", data: { message: final, ...(final.sources ? { sources: final.sources } : {}) } });
  } catch (error) {
    console.error(JSON.stringify({ event: "widget-turn-failed", sessionId: session.id, error: String(error) }));
    fail(widgetMessages.replyFailed);
  } finally {
    emit({ event: "remaining-messages", data: remainingFrame(input.remaining, assistant.config) });
  }
}
