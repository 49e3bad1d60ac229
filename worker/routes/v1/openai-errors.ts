import type { OpenAiErrorBody } from "../../../contract";
import type { OpenAiErrorType } from "../../services/openai-compat/chat-completion-refusal";

/** An OpenAI-style error response: `{ error: { message, type, code, param } }` with its status. */
export function openAiError(status: number, type: OpenAiErrorType, message: string, code: string | null = null, headers: Record<string, string> = {}) {
  const body: OpenAiErrorBody = { error: { message, type, code, param: null } };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}
