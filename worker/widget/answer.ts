import type { WidgetSource } from "../../contract";
import { replyFailureMessage } from "../chat/model-failure";
import type { Env } from "../env";
import { getModelProvider } from "../models";
import type { PublicAssistantRecord } from "../services/public-assistants/to-public-assistant";
import { buildKnowledgePrompt, citedSources, offlineAnswer, offlineSources, sourcesOf, type AttachedText, type HistoryTurn, type Passage } from "./prompt";

export interface KnowledgeAnswerInput {
  env: Env;
  assistant: Pick<PublicAssistantRecord, "id" | "name" | "instructions">;
  /** How visitors reach the owner (customization.contactLine), given when no document covers the question; absent: none. */
  contactLine?: string;
  question: string;
  /** Earlier turns of the conversation, oldest first. */
  history: readonly HistoryTurn[];
  files: readonly AttachedText[];
  locale: string;
  callerInstructions?: string;
  /**
   * The passages for the question, retrieved next to the index by the assistant's own object
   * (`beginTurn` / `admitApiCall`: hybrid search over its FTS5, plus vectors); null when that
   * retrieval failed (the answer fails: the caller reports a failed reply).
   */
  passages: Passage[] | null;
  signal: AbortSignal;
  /** Each piece of the answer as it is written; `offset` is where it starts in the text. */
  onDelta: (delta: string, offset: number) => void;
}

export type AnswerOutcome = { status: "complete" | "stopped" } | { status: "error"; error: string };

export interface KnowledgeAnswer {
  text: string;
  /** The files the answer names (with a model) or quotes (offline), one per file, best first; only passages above the relevance floor. */
  sources: WidgetSource[];
  outcome: AnswerOutcome;
  /** True when no model is configured and the answer is the passages themselves. */
  offline: boolean;
}

/**
 * One answer of a public assistant, whatever the transport (socket, SSE, OpenAI-compatible):
 * given the passages the assistant's own object retrieved for the question (hybrid search: BM25,
 * plus vectors when embeddings are configured), asks the model with the knowledge prompt and
 * streams its text through `onDelta`.
 * With no model (offline mode) the answer is the best passages, labelled as excerpts. A model
 * failure keeps the text so far and reports `error` with a message safe to show. A failed
 * retrieval (`passages` null) throws (the caller reports a failed reply).
 */
export async function answerFromKnowledge(input: KnowledgeAnswerInput): Promise<KnowledgeAnswer> {
  if (!input.passages) throw new Error("knowledge retrieval failed");
  const passages = input.passages;

  const provider = getModelProvider(input.env);
  if (!provider) {
    const text = offlineAnswer(passages, input.contactLine);
    input.onDelta(text, 0);
    return { text, sources: offlineSources(passages), outcome: { status: "complete" }, offline: true };
  }

  const messages = buildKnowledgePrompt({
    assistantName: input.assistant.name,
    instructions: input.assistant.instructions,
    callerInstructions: input.callerInstructions,
    passages,
    history: input.history,
    question: input.question,
    files: input.files,
    locale: input.locale,
    contactLine: input.contactLine,
  });
  let text = "";
  let outcome: AnswerOutcome = { status: "complete" };
  try {
    for await (const delta of provider.stream({ messages, signal: input.signal })) {
      const offset = text.length;
      text += delta;
      input.onDelta(delta, offset);
    }
    if (input.signal.aborted) outcome = { status: "stopped" };
  } catch (error) {
    if (input.signal.aborted) outcome = { status: "stopped" };
    else {
      console.error(JSON.stringify({ event: "widget-model-failed", assistantId: input.assistant.id, kind: (error as { kind?: string }).kind, error: String(error) }));
      outcome = { status: "error", error: replyFailureMessage(error) };
    }
  }
  return { text, sources: passages.length ? citedSources(text, sourcesOf(passages)) : [], outcome, offline: false };
}
