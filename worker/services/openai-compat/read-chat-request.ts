import { openAiChatRequest, openAiCompat, openAiCompatMessages as M, openAiMessageSchema, type OpenAiMessage } from "../../../contract";
import type { HistoryTurn } from "../../widget/prompt";
import { isRefusal, refuse, type ChatCompletionRefusal } from "./chat-completion-refusal";

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

/** The body → the request, or the 400 OpenAI answers for it (not JSON, no messages, too many, a bad message, no user message). */
export function readChatRequest(body: ChatCompletionBody): ChatRequest | ChatCompletionRefusal {
  if (!body.parsed) return refuse(400, "invalid_request_error", M.invalidJson);
  const raw = body.value;
  const request = openAiChatRequest.safeParse(raw);
  if (!request.success) {
    const tooMany = Array.isArray((raw as { messages?: unknown })?.messages) && (raw as { messages: unknown[] }).messages.length > openAiCompat.maxMessages;
    return refuse(400, "invalid_request_error", tooMany ? M.tooManyMessages(openAiCompat.maxMessages) : M.messagesRequired, "invalid_value");
  }
  const conversation = readConversation(request.data.messages);
  if (isRefusal(conversation)) return conversation;
  return { model: request.data.model || openAiCompat.defaultModel, stream: request.data.stream, conversation };
}

/** The request's messages → the last user message, the turns before it, and the caller's system text. */
function readConversation(raw: unknown[]): Conversation | ChatCompletionRefusal {
  const messages: OpenAiMessage[] = [];
  for (const [i, item] of raw.entries()) {
    const parsed = openAiMessageSchema.safeParse(item);
    if (!parsed.success) return refuse(400, "invalid_request_error", M.invalidMessage(i), "invalid_value");
    if (textOf(parsed.data).length > openAiCompat.maxMessageChars) return refuse(400, "invalid_request_error", M.messageTooLong(openAiCompat.maxMessageChars), "string_above_max_length");
    messages.push(parsed.data);
  }
  const last = messages.findLastIndex((m) => m.role === "user");
  if (last < 0) return refuse(400, "invalid_request_error", M.noUserMessage, "invalid_value");
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
