import type { Context } from "hono";
import { openAiCompatMessages as M, type OpenAiChatCompletion, type OpenAiChatCompletionChunk } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { estimateTokens } from "../../knowledge";
import type { AdmittedChatCompletion } from "../../services/openai-compat/admit-chat-completion";
import type { CuratedAnswer } from "../../assistant/hub-qa";
import { answerFromKnowledge, type KnowledgeAnswer, type KnowledgeAnswerInput } from "../../widget/answer";
import { curatedReply } from "../../widget/visitor-turn";
import { openAiError } from "./openai-errors";

type AnswerBase = Omit<KnowledgeAnswerInput, "onDelta" | "signal"> & { curated: CuratedAnswer | null };

/** The reply: the exact curated answer's text, else the model's from the passages. */
function reply({ curated, ...base }: AnswerBase, signal: AbortSignal, onDelta: (delta: string) => void): Promise<KnowledgeAnswer> {
  if (curated) return Promise.resolve(curatedReply(curated, onDelta));
  return answerFromKnowledge({ ...base, signal, onDelta });
}

/**
 * An admitted call answered: one JSON completion, or OpenAI's server-sent chunks when it asked to
 * stream. An `exact` curated answer is the reply as the widget gives it, streamed in the same
 * deltas, no model called (`curatedReply`); otherwise the model answers from the passages (a
 * `guide` pair first among them).
 */
export function answerChatCompletion(c: Context<AppEnv>, admitted: AdmittedChatCompletion): Promise<Response> | Response {
  const { conversation } = admitted;
  const base: AnswerBase = {
    curated: admitted.curated?.mode === "exact" ? admitted.curated : null,
    env: c.env,
    assistant: admitted.assistant,
    question: conversation.question,
    history: conversation.history,
    files: [],
    locale: "",
    callerInstructions: conversation.callerInstructions,
    passages: admitted.passages,
  };
  const head = { id: `chatcmpl-${crypto.randomUUID().replace(/-/g, "")}`, created: Math.floor(Date.now() / 1000), model: admitted.model };
  return admitted.stream ? streamCompletion(c, base, head) : completeAtOnce(c, base, head);
}

interface CompletionHead {
  id: string;
  created: number;
  model: string;
}

async function completeAtOnce(c: Context<AppEnv>, base: AnswerBase, head: CompletionHead): Promise<Response> {
  let answer;
  try {
    answer = await reply(base, new AbortController().signal, () => {});
  } catch (error) {
    console.error(JSON.stringify({ event: "openai-compat-failed", assistantId: base.assistant.id, error: String(error) }));
    return openAiError(500, "api_error", M.internal);
  }
  if (answer.outcome.status === "error") return openAiError(503, "api_error", M.modelFailed, "model_unavailable");
  const promptTokens = estimateTokens(base.question) + base.history.reduce((n, t) => n + estimateTokens(t.content), 0);
  const completionTokens = estimateTokens(answer.text);
  const body: OpenAiChatCompletion = {
    id: head.id,
    object: "chat.completion",
    created: head.created,
    model: head.model,
    choices: [{ index: 0, message: { role: "assistant", content: answer.text }, finish_reason: "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
  return c.json(body);
}

function streamCompletion(c: Context<AppEnv>, base: AnswerBase, head: CompletionHead): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  // The caller hung up: stop the model (nothing is saved for API calls).
  const controller = new AbortController();
  const write = (line: string) => writer.write(encoder.encode(`data: ${line}\n\n`)).catch(() => controller.abort());
  const chunk = (delta: OpenAiChatCompletionChunk["choices"][number]["delta"], finish: "stop" | null = null) =>
    write(JSON.stringify({ id: head.id, object: "chat.completion.chunk", created: head.created, model: head.model, choices: [{ index: 0, delta, finish_reason: finish }] } satisfies OpenAiChatCompletionChunk));
  const run = (async () => {
    void chunk({ role: "assistant", content: "" });
    try {
      const answer = await reply(base, controller.signal, (delta) => void chunk({ content: delta }));
      if (answer.outcome.status === "error") {
        // Headers are sent: OpenAI's streams report a failure as an error object in the stream.
        void write(JSON.stringify({ error: { message: M.modelFailed, type: "api_error", code: "model_unavailable", param: null } }));
      } else void chunk({}, "stop");
    } catch (error) {
      console.error(JSON.stringify({ event: "openai-compat-failed", assistantId: base.assistant.id, error: String(error) }));
      void write(JSON.stringify({ error: { message: M.internal, type: "api_error", code: null, param: null } }));
    }
    void write("[DONE]");
    await writer.close().catch(() => {});
  })();
  c.executionCtx.waitUntil(run);
  return new Response(readable, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-store, no-transform", "x-accel-buffering": "no" },
  });
}
