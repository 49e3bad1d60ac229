import type { z } from "zod";
import { handoffMessages, leadMessages, widgetMessages, type WidgetMessage, type WidgetServerFrame, type WidgetSource, type widgetSendMessageData } from "../../contract";
import type { BeginTurnResult } from "../assistant/hub-visitor-turn";
import type { Env } from "../env";
import { remainingFrame } from "../services/widget/widget-limits";
import { answerFromKnowledge, type KnowledgeAnswer } from "./answer";
import { sourcesOf } from "./prompt";
import { qaPassage } from "../assistant/hub-qa";

export type VisitorMessageInput = z.output<typeof widgetSendMessageData>;

export type AdmittedTurn = Extract<BeginTurnResult, { outcome: "admitted" }>;

/**
 * What a turn needs once its message is admitted: the assistant, the conversation (`session.id` is
 * the frames' `chatId`), the question as saved, its passages, and the `remaining-messages` data that
 * ends the turn. A visitor's comes from the assistant's object (`visitorTurn`); the owner's
 * Playground builds its own (nothing saved, its throttle as what is left).
 */
export interface AnswerTurn extends Pick<AdmittedTurn, "assistant" | "session" | "history" | "saved" | "passages"> {
  remaining: { remaining: number; limit: number };
  /** The curated answer the question matched; `exact`: its answer is the reply, streamed, with no model call. */
  curated?: AdmittedTurn["curated"] | undefined;
  /** The visitor asked for a person and the owner offers one: the reply is the offer, with no model call. */
  offer?: AdmittedTurn["offer"] | undefined;
  /** The visitor asked to be contacted and the owner's lead form shows then: the reply is its offer, with no model call. */
  leadOffer?: AdmittedTurn["leadOffer"] | undefined;
  /** The reply offers the owner's lead form (saved with the answer, shown under it). */
  offersLeadForm?: boolean | undefined;
}

/** Why a reply offers the lead form: the visitor asked to be contacted, or the knowledge had nothing. */
export type LeadOfferTrigger = "asked" | "unanswered";

/** A visitor's admitted turn, ending with what is left of the session's and the day's messages. */
export const visitorTurn = (begun: AdmittedTurn): AnswerTurn => ({ ...begun, remaining: remainingFrame(begun.remaining, begun.assistant.config) });

/** What the assistant's object stores of a visitor message: its text and its files' names (their text only goes to the model). */
export const turnMessage = (message: VisitorMessageInput) => ({ content: message.content, files: message.files.map((f) => ({ name: f.name })) });

export interface VisitorTurnDeps {
  env: Env;
  /** Sends a frame to the visitor: an SSE event, or a socket frame to every tab of the session. */
  emit: (frame: WidgetServerFrame) => void;
  /** Aborted by `stop`: the answer keeps its text so far (status stopped). */
  signal: AbortSignal;
  /** Saves the answer in the assistant's object (AssistantHub.finishTurn); null when the session is gone. */
  finish: (answer: { messageId: string; content: string; sources: WidgetSource[]; askedAt: number; offersHandoff?: boolean; offersLeadForm?: boolean; leadTrigger?: LeadOfferTrigger }) => Promise<WidgetMessage | null>;
  now?: () => number;
}

/**
 * One visitor message the assistant's object admitted and saved (`AssistantHub.beginTurn`; or the
 * owner's Playground message, which nothing saves), whatever the transport: echoes it (new-message
 * with clientMessageId), announces the answer (thinking), streams it (message-delta), has the
 * object save it with its sources (`finish`, then new-message) and ends with remaining-messages. The model streams here, in the caller,
 * never in the assistant's object. A failed answer sends message-error with its partial text and
 * is not saved: the visitor's message stays, and it was counted. Never throws.
 */
export async function runVisitorTurn(deps: VisitorTurnDeps, turn: AnswerTurn, message: VisitorMessageInput): Promise<void> {
  const { emit } = deps;
  const now = deps.now ?? Date.now;
  const { assistant, session } = turn;
  const { clientMessageId } = message;
  const fail = (error: string, extra: { messageId?: string; message?: WidgetMessage } = {}) =>
    emit({ event: "message-error", data: { error, reason: "reply-failed", chatId: session.id, clientMessageId, ...extra } });
  try {
    emit({ event: "new-message", data: { message: turn.saved, clientMessageId } });
    const messageId = crypto.randomUUID();
    emit({ event: "thinking", data: { chatId: session.id, messageId, clientMessageId } });
    const onDelta = (delta: string, offset: number) => emit({ event: "message-delta", data: { chatId: session.id, messageId, delta, offset } });
    const answer = turn.offer
      ? offerReply(handoffMessages.offerReply[turn.offer], onDelta)
      : turn.leadOffer
        ? offerReply(leadMessages.offerReply[turn.leadOffer], onDelta)
        : turn.curated?.mode === "exact"
        ? curatedReply(turn.curated, onDelta)
        : await answerFromKnowledge({
      env: deps.env,
      assistant,
      contactLine: assistant.config.customization.contactLine,
      question: message.content,
      history: turn.history,
      files: message.files,
      locale: session.locale,
      passages: turn.passages,
      signal: deps.signal,
      onDelta,
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
    const leadTrigger: LeadOfferTrigger = turn.leadOffer ? "asked" : "unanswered";
    const offers = { ...(turn.offer ? { offersHandoff: true } : {}), ...(turn.offersLeadForm ? { offersLeadForm: true, leadTrigger } : {}) };
    const reply = await deps.finish({ messageId, content: answer.text, sources: answer.sources, askedAt: turn.saved.timestamp, ...offers });
    if (!reply) throw new Error("visitor session gone before the answer was saved");
    const final = { ...reply, status: answer.outcome.status };
    emit({ event: "new-message", data: { message: final, ...(final.sources ? { sources: final.sources } : {}) } });
  } catch (error) {
    console.error(JSON.stringify({ event: "widget-turn-failed", sessionId: session.id, error: String(error) }));
    fail(widgetMessages.replyFailed);
  } finally {
    emit({ event: "remaining-messages", data: turn.remaining });
  }
}

/** Characters per delta of a curated reply: streamed like a model's, so every client shows it the same way. */
const CURATED_DELTA_CHARS = 48;

/**
 * A curated answer's reply: its text, sent in deltas cut after a space, and its source, the
 * site's own answer (`{ kind: "qa", qaId }`). No model, so it costs nothing and works offline.
 */
export function curatedReply(curated: NonNullable<AnswerTurn["curated"]>, onDelta: (delta: string, offset: number) => void): KnowledgeAnswer {
  const text = curated.answer;
  streamText(text, onDelta);
  return { text, sources: sourcesOf([qaPassage({ id: curated.qaId, question: curated.question, answer: text })]), outcome: { status: "complete" }, offline: false };
}

/** A fixed text sent in deltas cut after a space (a curated answer, the offer of a person). */
function streamText(text: string, onDelta: (delta: string, offset: number) => void) {
  for (let at = 0; at < text.length; ) {
    const space = text.indexOf(" ", at + CURATED_DELTA_CHARS);
    const end = space === -1 ? text.length : space + 1;
    onDelta(text.slice(at, end), at);
    at = end;
  }
}

/** The offer of a person (handoff-intent.ts) or of the lead form (contact-intent.ts): its text in the visitor's language, no source, no model. */
export function offerReply(text: string, onDelta: (delta: string, offset: number) => void): KnowledgeAnswer {
  streamText(text, onDelta);
  return { text, sources: [], outcome: { status: "complete" }, offline: false };
}
