import type { Context, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requestBodyLimits, requestMessages } from "../../contract";
import type { AppEnv } from "./context";
import { AppError } from "./errors";

/** The cap of a route family (contract `requestBodyLimits`), by its path under /api. */
export function bodyLimitFor(path: string): number {
  if (path.startsWith("/api/widget/")) return requestBodyLimits.widgetBytes;
  if (path.startsWith("/api/v1/")) return requestBodyLimits.openAiBytes;
  return requestBodyLimits.defaultBytes;
}

const tooLarge = (maxBytes: number) =>
  new AppError("PAYLOAD_TOO_LARGE", requestMessages.bodyTooLarge(Math.floor(maxBytes / 1024)));

const limiters = new Map<number, ReturnType<typeof bodyLimit>>();
const limiterOf = (maxSize: number) => {
  let limiter = limiters.get(maxSize);
  if (!limiter) {
    limiter = bodyLimit({ maxSize, onError: () => Promise.reject(tooLarge(maxSize)) });
    limiters.set(maxSize, limiter);
  }
  return limiter;
};

/**
 * Caps every /api request body that is not a multipart upload (those routes check their own,
 * larger limits before reading the form): a declared Content-Length over the cap is refused before
 * a byte is read; a body without one is counted while it streams and refused once past the cap.
 * Either way the answer is 413 with the envelope and a message naming the limit. The check runs
 * whatever the content type, since a JSON route reads the body whatever the client declared.
 */
export async function capRequestBody(c: Context<AppEnv>, next: Next) {
  const type = c.req.header("content-type") ?? "";
  if (!c.req.raw.body || type.toLowerCase().startsWith("multipart/form-data")) return next();
  return limiterOf(bodyLimitFor(c.req.path))(c, next);
}
