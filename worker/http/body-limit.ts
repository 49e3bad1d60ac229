import type { Context, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import { knowledgeMessages, knowledgeUpload, publicAssistantServerMessages, qaLimits, qaMessages, requestBodyLimits, requestMessages, upload } from "../../contract";
import type { AppEnv } from "./context";
import { AppError } from "./errors";

/** Multipart overhead allowed above a chat attachment's own 15 MB. */
const MULTIPART_SLACK_BYTES = 64 * 1024;

interface BodyCap {
  bytes: number;
  /** The 413 this route answers past its cap (uploads keep their own, file-level messages). */
  error: () => AppError;
}

const jsonCap = (bytes: number): BodyCap => ({
  bytes,
  error: () => new AppError("PAYLOAD_TOO_LARGE", requestMessages.bodyTooLarge(Math.floor(bytes / 1024))),
});
const knowledgeUploadCap: BodyCap = {
  bytes: knowledgeUpload.maxRequestBytes,
  error: () => new AppError("PAYLOAD_TOO_LARGE", publicAssistantServerMessages.uploadTooLarge(Math.floor(knowledgeUpload.maxRequestBytes / (1024 * 1024)))),
};
const qaImportCap: BodyCap = {
  bytes: qaLimits.maxImportBytes + MULTIPART_SLACK_BYTES,
  error: () => new AppError("PAYLOAD_TOO_LARGE", qaMessages.importTooLarge(Math.floor(qaLimits.maxImportBytes / (1024 * 1024)))),
};
const chatAttachmentCap: BodyCap = {
  bytes: upload.maxFileBytes + MULTIPART_SLACK_BYTES,
  error: () => new AppError("PAYLOAD_TOO_LARGE", knowledgeMessages.fileTooLarge("This file")),
};

/**
 * The cap of a request's body, by its path under /api, whatever its declared content type: a
 * route reads its body whatever the client declared (a JSON route sent `multipart/form-data`, a
 * CORS-safelisted type, still parses it as JSON), so the type never lifts a cap. Only the two
 * upload routes and the curated answers' CSV import get larger caps (contract `knowledgeUpload`, `upload`, `qaLimits`); the widget's messages and
 * the owner's Playground the widget's.
 */
export function bodyCapFor(method: string, path: string): BodyCap {
  if (method === "POST" && /^\/api\/public-assistants\/[^/]+\/files\/?$/.test(path)) return knowledgeUploadCap;
  if (method === "POST" && /^\/api\/chat\/attachments\/?$/.test(path)) return chatAttachmentCap;
  if (method === "POST" && /^\/api\/public-assistants\/[^/]+\/qa\/import\/?$/.test(path)) return qaImportCap;
  // A widget message carries its attachments' text; the owner's Playground sends the same message plus its earlier turns.
  if (path.startsWith("/api/widget/") || (method === "POST" && /^\/api\/public-assistants\/[^/]+\/playground\/?$/.test(path))) {
    return jsonCap(requestBodyLimits.widgetBytes);
  }
  if (path.startsWith("/api/v1/")) return jsonCap(requestBodyLimits.openAiBytes);
  if (method === "POST" && /^\/api\/chat\/frames\/?$/.test(path)) return jsonCap(requestBodyLimits.chatFrameBytes);
  return jsonCap(requestBodyLimits.defaultBytes);
}

/**
 * Caps every /api request body: a declared Content-Length over the cap is refused before a byte
 * is read; a body without one (chunked) is counted while it streams and refused once past the cap,
 * uploads included (their routes then read the counted copy). Either way the answer is 413 with
 * the envelope and a message naming the limit.
 */
export async function capRequestBody(c: Context<AppEnv>, next: Next) {
  if (!c.req.raw.body) return next();
  const cap = bodyCapFor(c.req.method, c.req.path);
  return bodyLimit({ maxSize: cap.bytes, onError: () => Promise.reject(cap.error()) })(c, next);
}
