import { isGone } from "../../assistant/gone";
import type { z } from "zod";
import { playground, widgetMessages, type playgroundMessageBody, type WidgetMessage } from "../../../contract";
import { AppError, notFound } from "../../http/errors";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { retrievalQuery } from "../../widget/prompt";
import type { AnswerTurn, VisitorTurnDeps } from "../../widget/visitor-turn";
import type { ServiceContext } from "../context";
import { consumeRateLimit, retryAfterSeconds } from "../rate-limit";
import { attachmentsRefusal } from "../widget/admit-visitor-message";
import { requirePublicAssistant } from "./find-public-assistant";
import { toPublicAssistantRecord } from "./to-public-assistant";

export type PlaygroundMessage = z.output<typeof playgroundMessageBody>;

/** The owner's playground counter: per user, across all their assistants. */
const THROTTLE_SCOPE = "playground:user";

/**
 * The owner's Playground message, before its answer (`runVisitorTurn` writes it, as for a visitor):
 * the owner's assistant (another owner's is a 404), the assistant's attachments rule, the owner's
 * playground throttle (429 with Retry-After; a refused or invalid message costs nothing), then the
 * passages for the question from the assistant's own object, which counts nothing there. Works for
 * an inactive assistant too: owners try one out before switching it on.
 * Nothing is saved: the conversation lives in the browser, which sends its earlier turns
 * (`history`), and `finish` hands the answer back unsaved, its sources always shown to the owner.
 */
export async function beginPlaygroundTurn({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; message: PlaygroundMessage };
}): Promise<{ turn: AnswerTurn; finish: VisitorTurnDeps["finish"] }> {
  const assistant = toPublicAssistantRecord(await requirePublicAssistant({ ctx, input }));
  const { message } = input;
  const refusal = attachmentsRefusal(message.files.length, assistant.config.allowAttachments);
  if (refusal) throw new AppError(refusal.code, refusal.error);
  const counted = await consumeRateLimit(ctx.env, THROTTLE_SCOPE, input.userId, playground.throttle);
  if (!counted.allowed) throw new AppError("RATE_LIMITED", widgetMessages.tooManyMessages, { retryAfter: retryAfterSeconds(counted) });

  const found = await reachAssistantHub(ctx.env, assistant.id).knowledge().retrieve({
    query: retrievalQuery(message.content, message.history),
    question: message.content,
  });
  // Deleted since the D1 read: as if it had not been found then.
  if (isGone(found)) throw notFound();

  const chatId = crypto.randomUUID();
  const askedAt = Date.now();
  const saved: WidgetMessage = {
    id: crypto.randomUUID(),
    chatId,
    role: "user",
    content: { type: "text", data: message.content },
    files: message.files.map((f) => ({ name: f.name })),
    timestamp: askedAt,
    status: "complete",
    error: null,
  };
  const turn: AnswerTurn = {
    assistant,
    session: { id: chatId, startedAt: askedAt, locale: message.locale },
    history: message.history,
    saved,
    passages: found.passages,
    curated: found.curated,
    remaining: { remaining: counted.remaining, limit: playground.throttle.limit },
  };
  const finish: VisitorTurnDeps["finish"] = async (answer) => ({
    id: answer.messageId,
    chatId,
    role: "assistant",
    content: { type: "text", data: answer.content },
    files: [],
    timestamp: Math.max(Date.now(), answer.askedAt + 1),
    status: "complete",
    error: null,
    ...(answer.sources.length ? { sources: answer.sources } : {}),
  });
  return { turn, finish };
}
