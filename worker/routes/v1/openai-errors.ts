import type { OpenAiErrorBody } from "../../../contract";
import type { ChatCompletionRefusal, OpenAiErrorType } from "../../services/openai-compat/chat-completion-refusal";

/** An OpenAI-style error response: `{ error: { message, type, code, param } }` with its status. */
export function openAiError(status: number, type: OpenAiErrorType, message: string, code: string | null = null, headers: Record<string, string> = {}, param: string | null = null) {
  const body: OpenAiErrorBody = { error: { message, type, code, param } };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

/** A /v1 refusal as OpenAI's error response. */
export function refusalResponse(refusal: ChatCompletionRefusal) {
  return openAiError(refusal.status, refusal.type, refusal.message, refusal.code, refusal.headers, refusal.param);
}
