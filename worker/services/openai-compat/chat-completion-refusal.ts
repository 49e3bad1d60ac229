import { openAiCompatMessages as M, type openAiErrorTypes } from "../../../contract";
import type { ApiAccessDenied } from "../../assistant/assistant-copy";
import { AppError, unauthorized } from "../../http/errors";
import { OriginNotAllowedError } from "../widget/authorize-widget-call";

export type OpenAiErrorType = (typeof openAiErrorTypes)[number];

/**
 * A /v1 call refused: what the route answers as OpenAI's error body. `param`: the request field
 * at fault, named as OpenAI names it ("model", "messages[0].role"). `originRefused`: the response
 * must not reflect the Origin (CORS).
 */
export interface ChatCompletionRefusal {
  outcome: "refused";
  status: number;
  type: OpenAiErrorType;
  message: string;
  code: string | null;
  param: string | null;
  headers: Record<string, string>;
  originRefused: boolean;
}

export function refuse(status: number, type: OpenAiErrorType, message: string, code: string | null = null, headers: Record<string, string> = {}): ChatCompletionRefusal {
  return { outcome: "refused", status, type, message, code, param: null, headers, originRefused: false };
}

/** A 400 for one request field (`param`). */
export function refuseParam(param: string, message: string, code: string): ChatCompletionRefusal {
  return { ...refuse(400, "invalid_request_error", message, code), param };
}

export const isRefusal = <T extends object>(value: T | ChatCompletionRefusal): value is ChatCompletionRefusal =>
  (value as { outcome?: unknown }).outcome === "refused";

/** A refused key (D1's read or `presentedSecretKey`): 401, or 403 for an inactive assistant or a refused browser Origin. Anything but an AppError is thrown on. */
export function keyRefusal(error: unknown): ChatCompletionRefusal {
  if (!(error instanceof AppError)) throw error;
  if (error.code === "UNAUTHORIZED") return refuse(401, "invalid_request_error", M.invalidKey, "invalid_api_key");
  const refusal = refuse(403, "permission_error", error.message, error.message === M.unavailable ? "assistant_unavailable" : "origin_not_allowed");
  return { ...refusal, originRefused: error instanceof OriginNotAllowedError };
}

/** The assistant's object refused the key (its copy): the same answers as D1's read. */
export function deniedBy(denied: ApiAccessDenied): ChatCompletionRefusal {
  if (denied === "invalid-key") return keyRefusal(unauthorized(M.invalidKey));
  return keyRefusal(denied === "unavailable" ? new AppError("FORBIDDEN", M.unavailable) : new OriginNotAllowedError());
}
