/**
 * POST /api/v1/chat/completions: the OpenAI Chat Completions shape (DESIGN.md "Contracts" →
 * OpenAI-compatible), answering as the public assistant whose API key is the Bearer token.
 * Only what Tala reads is validated; unknown fields (temperature, user, tools…) are accepted and ignored.
 */
import { z } from "zod";
import { openAiCompat } from "../constants";

export const openAiCompatPath = "/api/v1/chat/completions";

const textPart = z.looseObject({ type: z.literal("text"), text: z.string() });
const otherPart = z.looseObject({ type: z.string() });

/** One request message; array content keeps only its text parts. */
export const openAiMessageSchema = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant"]),
  content: z.union([z.string(), z.array(z.union([textPart, otherPart])), z.null()]).optional(),
});
export type OpenAiMessage = z.infer<typeof openAiMessageSchema>;

export const openAiChatRequest = z.looseObject({
  /** Accepted and echoed back; the assistant's configured model answers. */
  model: z.string().max(200).optional(),
  messages: z.array(z.unknown()).min(1).max(openAiCompat.maxMessages),
  stream: z.boolean().optional().default(false),
});
export type OpenAiChatRequest = z.input<typeof openAiChatRequest>;

export const openAiUsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

/** A non-streamed answer. */
export const openAiChatCompletion = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal("assistant"), content: z.string() }),
      finish_reason: z.enum(["stop", "length"]),
    }),
  ),
  usage: openAiUsageSchema,
});
export type OpenAiChatCompletion = z.infer<typeof openAiChatCompletion>;

/** One `data: {…}` line of a streamed answer; the stream ends with `data: [DONE]`. */
export const openAiChatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal("assistant").optional(), content: z.string().optional() }),
      finish_reason: z.enum(["stop", "length"]).nullable(),
    }),
  ),
});
export type OpenAiChatCompletionChunk = z.infer<typeof openAiChatCompletionChunk>;

export const openAiModelsPath = "/api/v1/models";

/** GET /api/v1/models/{id}: one model; the key's assistant is the one Tala lists. `created`: unix seconds. */
export const openAiModel = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});
export type OpenAiModel = z.infer<typeof openAiModel>;

/** GET /api/v1/models. */
export const openAiModelList = z.object({ object: z.literal("list"), data: z.array(openAiModel) });
export type OpenAiModelList = z.infer<typeof openAiModelList>;

export const openAiErrorTypes = ["invalid_request_error", "authentication_error", "permission_error", "rate_limit_error", "api_error"] as const;

/** Every refusal: OpenAI's error body, with a fitting status (400, 401, 403, 404, 429, 500, 503). */
export const openAiErrorBody = z.object({
  error: z.object({
    message: z.string(),
    type: z.enum(openAiErrorTypes),
    code: z.string().nullable(),
    param: z.string().nullable(),
  }),
});
export type OpenAiErrorBody = z.infer<typeof openAiErrorBody>;
