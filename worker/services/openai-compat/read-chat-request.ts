import type { z } from "zod";
import { openAiChatRequest, openAiCompat, openAiCompatMessages as M, openAiMessageSchema, type OpenAiMessage } from "../../../contract";
import type { HistoryTurn } from "../../widget/prompt";
import { isRefusal, refuse, refuseParam, type ChatCompletionRefusal } from "./chat-completion-refusal";

/** The request's body as the route read it: its JSON, or `parsed: false` when it was not JSON. */
export type ChatCompletionBody = { parsed: true; value: unknown } | { parsed: false };

export interface Conversation {
  question: string;
  history: HistoryTurn[];
  callerInstructions: string;
}

/** What a valid request asks: the model to echo, whether to stream, and the conversation. */
export interface ChatRequest {
  model: string;
  stream: boolean;
  conversation: Conversation;
}

const textOf = (m: OpenAiMessage): string =>
  typeof m.content === "string"
    ? m.content
    : Array.isArray(m.content)
      ? m.content.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join("")
      : "";

/** The body → the request, or the 400 OpenAI answers for it (not JSON, a field missing or wrong, too many messages, no user message), naming the field in `param`. */
export function readChatRequest(body: ChatCompletionBody): ChatRequest | ChatCompletionRefusal {
  if (!body.parsed) return refuse(400, "invalid_request_error", M.invalidJson);
  const raw = body.value;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return refuseParam("messages", M.messagesRequired, "invalid_type");
  const request = openAiChatRequest.safeParse(raw);
  if (!request.success) return fieldRefusal(request.error.issues[0], [], raw);
  const conversation = readConversation(request.data.messages);
  if (isRefusal(conversation)) return conversation;
  return { model: request.data.model || openAiCompat.defaultModel, stream: request.data.stream, conversation };
}

/** A path as OpenAI names a field: `messages[0].role`. */
export function paramName(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join("");
}

const expectedTypes: Record<string, string> = {
  string: "a string",
  boolean: "a boolean",
  number: "a number",
  array: "an array",
  object: "an object",
};

/** The value at `path` inside `value` (undefined when any step is missing). */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((at, key) => (at !== null && typeof at === "object" ? (at as Record<PropertyKey, unknown>)[key] : undefined), value);
}

/** A schema's first issue (under `prefix`, inside `raw`) → OpenAI's 400 for that field. */
function fieldRefusal(issue: z.core.$ZodIssue | undefined, prefix: readonly PropertyKey[], raw: unknown): ChatCompletionRefusal {
  const path = [...prefix, ...(issue?.path ?? [])];
  const param = paramName(path);
  if (!issue || !param) return refuseParam("messages", M.messagesRequired, "invalid_value");
  const top = path[0];
  if (top === "messages" && path.length === 1 && issue.code !== "invalid_type") {
    if (issue.code === "too_big") return refuseParam(param, M.tooManyMessages(openAiCompat.maxMessages), "array_above_max_length");
    return refuseParam(param, M.messagesRequired, "empty_array");
  }
  if (valueAt(raw, path) === undefined) return refuseParam(param, M.missingParameter(param), "missing_required_parameter");
  switch (issue.code) {
    case "invalid_type":
      if (top === "messages" && path.length === 1) return refuseParam(param, M.messagesRequired, "invalid_type");
      return refuseParam(param, M.invalidType(param, expectedTypes[issue.expected] ?? issue.expected), "invalid_type");
    case "invalid_union":
      return refuseParam(param, M.invalidType(param, "a string or an array of content parts"), "invalid_type");
    case "invalid_value":
      return refuseParam(param, M.invalidValue(param, issue.values.map(String)), "invalid_value");
    case "too_big":
      if (issue.origin === "string") return refuseParam(param, M.tooLong(param, Number(issue.maximum)), "string_above_max_length");
      return refuseParam(param, M.invalidParameter(param), "invalid_value");
    default:
      return refuseParam(param, M.invalidParameter(param), "invalid_value");
  }
}

/** The request's messages → the last user message, the turns before it, and the caller's system text. */
function readConversation(raw: unknown[]): Conversation | ChatCompletionRefusal {
  const messages: OpenAiMessage[] = [];
  for (const [i, item] of raw.entries()) {
    const parsed = openAiMessageSchema.safeParse(item);
    if (!parsed.success) return fieldRefusal(parsed.error.issues[0], ["messages", i], { messages: raw });
    if (textOf(parsed.data).length > openAiCompat.maxMessageChars) return refuseParam(`messages[${i}].content`, M.messageTooLong(openAiCompat.maxMessageChars), "string_above_max_length");
    messages.push(parsed.data);
  }
  const last = messages.findLastIndex((m) => m.role === "user");
  if (last < 0) return refuseParam("messages", M.noUserMessage, "invalid_value");
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
