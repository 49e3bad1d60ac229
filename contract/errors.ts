import { z } from "zod";

/** The closed set of error codes the API answers with. */
export const errorCodes = [
  "VALIDATION_ERROR",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  /** The path exists with other methods; the `Allow` header names them. */
  "METHOD_NOT_ALLOWED",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "UNPROCESSABLE",
  "RATE_LIMITED",
  /** A widget session needs a proof-of-work first; the body carries `challenge`. */
  "CHALLENGE_REQUIRED",
  "SERVICE_UNAVAILABLE",
  "INTERNAL_ERROR",
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const errorStatus: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  CHALLENGE_REQUIRED: 428,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

/** Every error response body: `error` is the human message the UI shows. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.enum(errorCodes),
  requestId: z.string(),
  /** Field → message, on VALIDATION_ERROR. */
  fields: z.record(z.string(), z.string()).optional(),
  /** Seconds until a RATE_LIMITED caller may try again. */
  retryAfter: z.number().int().optional(),
  /**
   * On the widget's message route (POST /api/widget/sessions/{id}/messages), a refusal's reason
   * (schemas/widget.ts widgetRefusalReasons: `budget-reached`, `daily-limit`…), as the socket's
   * `message-error` carries it: the widget treats final refusals as final over HTTP too.
   */
  reason: z.string().optional(),
  /** On CHALLENGE_REQUIRED (428), and on a refused proof (403) so an honest widget may solve once more. */
  challenge: z.object({ challenge: z.string(), difficulty: z.number().int() }).optional(),
  /**
   * On the widget's refusals of a switched-off assistant (403), the owner's contact line
   * (customization.contactLine) when they set one: the widget shows it with the composer disabled.
   */
  contactLine: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
