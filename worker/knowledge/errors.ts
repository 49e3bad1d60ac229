import type { ErrorCode } from "../../contract";

/**
 * Why a knowledge file was refused or could not be processed. Each reason has one user-facing
 * message in `knowledgeMessages` (contract) and one API error code (`knowledgeErrorCodes`).
 */
export type KnowledgeErrorReason =
  | "unsupported_type"
  | "too_large"
  | "content_mismatch"
  | "invalid_encoding"
  | "invalid_json"
  | "damaged"
  | "password_protected"
  | "no_text"
  | "unsupported_version"
  | "too_complex"
  | "missing"
  | "embedding_failed"
  | "internal";

/** The API error code a route answers with for each reason (413 size, 415 type, 422 content). */
export const knowledgeErrorCodes: Record<KnowledgeErrorReason, ErrorCode> = {
  unsupported_type: "UNSUPPORTED_MEDIA_TYPE",
  too_large: "PAYLOAD_TOO_LARGE",
  content_mismatch: "UNSUPPORTED_MEDIA_TYPE",
  invalid_encoding: "UNPROCESSABLE",
  invalid_json: "UNPROCESSABLE",
  damaged: "UNPROCESSABLE",
  password_protected: "UNPROCESSABLE",
  no_text: "UNPROCESSABLE",
  unsupported_version: "UNPROCESSABLE",
  too_complex: "UNPROCESSABLE",
  missing: "NOT_FOUND",
  embedding_failed: "SERVICE_UNAVAILABLE",
  internal: "INTERNAL_ERROR",
};

/**
 * A typed failure of one knowledge file. `message` is safe to show the owner (it comes from
 * `knowledgeMessages`); `cause` may hold the library error for logs and never reaches a client.
 */
export class KnowledgeError extends Error {
  constructor(
    readonly reason: KnowledgeErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "KnowledgeError";
  }

  /** The API error code of this failure (see `knowledgeErrorCodes`). */
  get code(): ErrorCode {
    return knowledgeErrorCodes[this.reason];
  }
}

export const isKnowledgeError = (error: unknown): error is KnowledgeError => error instanceof KnowledgeError;
