import { Hono, type Context } from "hono";
import {
  budgetMessages,
  openAiChatRequest,
  openAiCompat,
  openAiCompatMessages as M,
  openAiMessageSchema,
  publicAssistantApiKey,
  type OpenAiChatCompletion,
  type OpenAiChatCompletionChunk,
  type OpenAiMessage,
} from "../../../contract";
import type { AppEnv } from "../../http/context";
import { AppError, unauthorized } from "../../http/errors";
import { serviceContext } from "../../http/service-context";
import { estimateTokens } from "../../knowledge";
import type { ApiAccessDenied } from "../../assistant/assistant-copy";
import { authorizeSecretKeyCall, presentedSecretKey, touchSecretKey, type SecretKeyCaller } from "../../services/secret-keys/authorize-secret-key-call";
import { secretKeyDirectory, type KnownSecretKey } from "../../services/secret-keys/secret-key-directory";
import { OriginNotAllowedError } from "../../services/widget/authorize-widget-call";
import { answerFromKnowledge, type KnowledgeAnswerInput } from "../../widget/answer";
import { assistantHubUnavailable, getAssistantHub } from "../../widget/get-assistant-hub";
import { retrievalQuery, type HistoryTurn } from "../../widget/prompt";
import { refuseCors } from "../widget/cors";
import { openAiError } from "./openai-errors";

const textOf = (m: OpenAiMessage): string =>
  typeof m.content === "string"
    ? m.content
    : Array.isArray(m.content)
      ? m.content.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join("")
      : "";

interface Conversation {
  question: string;
  history: HistoryTurn[];
  callerInstructions: string;
}

/** The request's messages → the last user message, the turns before it, and the caller's system text. */
function readConversation(raw: unknown[]): Conversation | Response {
  const messages: OpenAiMessage[] = [];
  for (const [i, item] of raw.entries()) {
    const parsed = openAiMessageSchema.safeParse(item);
    if (!parsed.success) return openAiError(400, "invalid_request_error", M.invalidMessage(i), "invalid_value");
    if (textOf(parsed.data).length > openAiCompat.maxMessageChars) return openAiError(400, "invalid_request_error", M.messageTooLong(openAiCompat.maxMessageChars), "string_above_max_length");
    messages.push(parsed.data);
  }
  const last = messages.findLastIndex((m) => m.role === "user");
  if (last < 0) return openAiError(400, "invalid_request_error", M.noUserMessage, "invalid_value");
  const history = messages
    .slice(0, last)
    .filter((m): m is OpenAiMessage & { role: "user" | "assistant" } => m.role === "user" || m.role === "assistant")
    .map((m) => ({ role: m.role, content: textOf(m) }))
    .slice(-openAiCompat.historyMessages);
  const callerInstructions = messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map(textOf)
    .join("\n\n");
  return { question: textOf(messages[last]!), history, callerInstructions };
}

/** A /v1 caller: its Bearer token, the token's hash, its Origin, and the key's assistant and id (`known`: from this isolate's directory, no D1 read). */
interface ApiCaller {
  token: string;
  keyHash: string;
  origin: string;
  key: KnownSecretKey;
  known: boolean;
}

/**
 * The caller before the body is read: 401 without a key, with the publishable key (recognised by
 * its prefix, its own message), or with a key not shaped like a secret key. A key this isolate
 * knows (secret-key-directory.ts) is not read from D1: the assistant's own object checks it on the
 * call (`admitApiCall`). Any other is read from D1 (unknown or revoked → 401; 403 for an inactive
 * assistant or a refused browser Origin) and remembered.
 */
async function authorize(c: Context<AppEnv>): Promise<ApiCaller | Response> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
  if (!match) return openAiError(401, "invalid_request_error", M.missingKey, "missing_api_key");
  const key = match[1]!;
  if (key.startsWith(publicAssistantApiKey.prefix)) return openAiError(401, "invalid_request_error", M.publishableKey, "invalid_api_key");
  try {
    const presented = await presentedSecretKey({ key, origin: c.req.header("origin") });
    const known = secretKeyDirectory.get(presented.keyHash);
    if (known) return { token: key, ...presented, key: known, known: true };
    const read = await readInD1(c, key, presented.keyHash);
    return { token: key, ...presented, key: read.remembered, known: false };
  } catch (error) {
    return refusal(c, error);
  }
}

/** D1's read of the key (authorize-secret-key-call.ts; throws its refusal), remembered in this isolate's directory. */
async function readInD1(c: Context<AppEnv>, token: string, keyHash: string): Promise<SecretKeyCaller & { remembered: KnownSecretKey }> {
  const read = await authorizeSecretKeyCall({ ctx: serviceContext(c), input: { key: token, origin: c.req.header("origin") } });
  const remembered: KnownSecretKey = { assistantId: read.assistant.id, secretKey: read.secretKey };
  secretKeyDirectory.remember(keyHash, remembered);
  return { ...read, remembered };
}

/** The caller's key read in D1 again: what D1 says (remembered), or its exact refusal, and the directory forgets the key. */
async function readAgain(c: Context<AppEnv>, caller: ApiCaller): Promise<SecretKeyCaller | Response> {
  try {
    return await readInD1(c, caller.token, caller.keyHash);
  } catch (error) {
    secretKeyDirectory.forget(caller.keyHash);
    return refusal(c, error);
  }
}

/**
 * A remembered key read in D1 again, when the assistant's object refused the call or the body was
 * bad (a bad key answers 401 whatever the body): D1's exact refusal (`readAgain`); null when D1
 * lets it through (or the key was just read from D1).
 */
async function recheck(c: Context<AppEnv>, caller: ApiCaller): Promise<Response | null> {
  if (!caller.known) return null;
  const read = await readAgain(c, caller);
  return read instanceof Response ? read : null;
}

/** The OpenAI-style answer to a refused key: 401, or 403 for an inactive assistant or a refused browser Origin (not reflected by CORS). */
function refusal(c: Context<AppEnv>, error: unknown): Response {
  if (!(error instanceof AppError)) throw error;
  refuseCors(c, error);
  if (error.code === "UNAUTHORIZED") return openAiError(401, "invalid_request_error", M.invalidKey, "invalid_api_key");
  return openAiError(403, "permission_error", error.message, error.message === M.unavailable ? "assistant_unavailable" : "origin_not_allowed");
}

/** The assistant's object refused the key (its copy): the same answers as D1's read. */
function deniedBy(c: Context<AppEnv>, denied: ApiAccessDenied): Response {
  if (denied === "invalid-key") return refusal(c, unauthorized(M.invalidKey));
  return refusal(c, denied === "unavailable" ? new AppError("FORBIDDEN", M.unavailable) : new OriginNotAllowedError());
}

/**
 * POST /chat/completions: OpenAI's Chat Completions, answered by the public assistant whose secret
 * key (`tala_sk_…`) is the Bearer token, from its knowledge base (the widget's retrieval and prompt). `model`
 * is accepted and echoed; the caller's system messages are added to the assistant's instructions.
 * Each request counts one message against the assistant's daily limit (no session limit: an API
 * caller has no visitor session). Nothing is saved to the visitor history.
 */
export const chatCompletionsRoute = new Hono<AppEnv>().post("/chat/completions", async (c) => {
  const caller = await authorize(c);
  if (caller instanceof Response) return caller;
  const { assistantId } = caller.key;
  // A bad body of a remembered key that no longer passes answers the key's refusal, as D1's read would first.
  const badRequest = async (response: Response) => (await recheck(c, caller)) ?? response;

  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return badRequest(openAiError(400, "invalid_request_error", M.invalidJson));
  }
  const request = openAiChatRequest.safeParse(raw);
  if (!request.success) {
    const tooMany = Array.isArray((raw as { messages?: unknown })?.messages) && (raw as { messages: unknown[] }).messages.length > openAiCompat.maxMessages;
    return badRequest(openAiError(400, "invalid_request_error", tooMany ? M.tooManyMessages(openAiCompat.maxMessages) : M.messagesRequired, "invalid_value"));
  }
  const conversation = readConversation(request.data.messages);
  if (conversation instanceof Response) return badRequest(conversation);

  // One call to the assistant's own object: the key against its copy, its daily counter (no session, no network share) and the retrieval.
  const hub = getAssistantHub(c.env, assistantId);
  const admit = async () => {
    try {
      return await hub.admitApiCall({
        assistantId,
        keyHash: caller.keyHash,
        origin: caller.origin,
        query: retrievalQuery(conversation.question, conversation.history),
        question: conversation.question,
      });
    } catch (error) {
      // The assistant's object did not answer: retryable, as OpenAI's own 503s are.
      const { extra } = assistantHubUnavailable(assistantId, "admitApiCall", error, M.assistantUnreachable);
      return openAiError(503, "api_error", M.assistantUnreachable, "service_unavailable", { "retry-after": String(extra.retryAfter) });
    }
  };
  let admission = await admit();
  if (admission instanceof Response) return admission;
  // The key revoked, the assistant switched off or deleted, the Origin taken off the allowlist:
  // D1's exact refusal for a remembered key (it is forgotten), else the object's.
  if (!admission.ok && ("missing" in admission || "denied" in admission)) {
    const refused = await recheck(c, caller);
    if (refused) return refused;
    // D1 lets the call through and the object's copy does not: the copy missed a change made
    // without telling it (a worker version before it, during a deployment). It reads D1 again, once.
    try {
      await hub.configChanged({ assistantId });
    } catch (error) {
      console.error(JSON.stringify({ event: "assistant-copy-refresh-failed", assistantId, error: String(error) }));
    }
    admission = await admit();
    if (admission instanceof Response) return admission;
    if (!admission.ok && ("missing" in admission || "denied" in admission)) return deniedBy(c, "denied" in admission ? admission.denied : "invalid-key");
  }
  await touchSecretKey(serviceContext(c), caller.key.secretKey); // settled at once: the write runs in waitUntil
  if (!admission.ok && "budget" in admission) {
    // A monthly budget is used up and pauses the assistant: 429 with OpenAI's code for a spent quota.
    return openAiError(429, "rate_limit_error", budgetMessages.budgetReached, "insufficient_quota", { "retry-after": String(admission.retryAfter) });
  }
  if (!admission.ok) {
    return openAiError(429, "rate_limit_error", M.dailyLimitReached, "daily_limit_exceeded", { "retry-after": String(admission.retryAfter) });
  }

  let assistant = admission.assistant as typeof admission.assistant | undefined;
  if (!assistant) {
    // An object still on a version before it checked keys (a deployment under way) checked none
    // and sent no assistant: D1's read for this call, as that version's route did.
    const read = await readAgain(c, caller);
    if (read instanceof Response) return read;
    assistant = read.assistant;
  }
  const id = `chatcmpl-${crypto.randomUUID().replace(/-/g, "")}`;
  const created = Math.floor(Date.now() / 1000);
  const model = request.data.model || openAiCompat.defaultModel;
  const base: Omit<KnowledgeAnswerInput, "onDelta" | "signal"> = {
    env: serviceContext(c).env,
    assistant,
    question: conversation.question,
    history: conversation.history,
    files: [],
    locale: "",
    callerInstructions: conversation.callerInstructions,
    passages: admission.passages,
  };

  if (!request.data.stream) {
    let answer;
    try {
      answer = await answerFromKnowledge({ ...base, signal: new AbortController().signal, onDelta: () => {} });
    } catch (error) {
      console.error(JSON.stringify({ event: "openai-compat-failed", assistantId: assistant.id, error: String(error) }));
      return openAiError(500, "api_error", M.internal);
    }
    if (answer.outcome.status === "error") return openAiError(503, "api_error", M.modelFailed, "model_unavailable");
    const promptTokens = estimateTokens(conversation.question) + conversation.history.reduce((n, t) => n + estimateTokens(t.content), 0);
    const completionTokens = estimateTokens(answer.text);
    const body: OpenAiChatCompletion = {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message: { role: "assistant", content: answer.text }, finish_reason: "stop" }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    };
    return c.json(body);
  }

  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  // The caller hung up: stop the model (nothing is saved for API calls).
  const controller = new AbortController();
  const write = (line: string) => writer.write(encoder.encode(`data: ${line}\n\n`)).catch(() => controller.abort());
  const chunk = (delta: OpenAiChatCompletionChunk["choices"][number]["delta"], finish: "stop" | null = null) =>
    write(JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] } satisfies OpenAiChatCompletionChunk));
  const run = (async () => {
    void chunk({ role: "assistant", content: "" });
    try {
      const answer = await answerFromKnowledge({ ...base, signal: controller.signal, onDelta: (delta) => void chunk({ content: delta }) });
      if (answer.outcome.status === "error") {
        // Headers are sent: OpenAI's streams report a failure as an error object in the stream.
        void write(JSON.stringify({ error: { message: M.modelFailed, type: "api_error", code: "model_unavailable", param: null } }));
      } else void chunk({}, "stop");
    } catch (error) {
      console.error(JSON.stringify({ event: "openai-compat-failed", assistantId: assistant.id, error: String(error) }));
      void write(JSON.stringify({ error: { message: M.internal, type: "api_error", code: null, param: null } }));
    }
    void write("[DONE]");
    await writer.close().catch(() => {});
  })();
  c.executionCtx.waitUntil(run);
  return new Response(readable, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-store, no-transform", "x-accel-buffering": "no" },
  });
});
