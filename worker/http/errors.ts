import { errorStatus, serverMessages, type ErrorCode } from "../../contract";

/**
 * The one error type services throw. `message` is shown to the user as is, so it must never
 * carry internals; anything that is not an AppError becomes a generic 500.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { fields?: Record<string, string>; retryAfter?: number; challenge?: { challenge: string; difficulty: number }; reason?: string; contactLine?: string } = {},
  ) {
    super(message);
    this.name = "AppError";
  }
  get status() {
    return errorStatus[this.code];
  }
}

export const notFound = () => new AppError("NOT_FOUND", serverMessages.notFound);
export const unauthorized = (message: string = serverMessages.authRequired) => new AppError("UNAUTHORIZED", message);
export const invalid = (message: string, fields?: Record<string, string>) =>
  new AppError("VALIDATION_ERROR", message, fields ? { fields } : {});
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError("RATE_LIMITED", serverMessages.throttled(retryAfterSeconds), { retryAfter: retryAfterSeconds });
