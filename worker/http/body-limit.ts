import type { Context, Next } from "hono";
import {
  assistantAvatar,
  avatarMessages,
  knowledgeMessages,
  knowledgeTextLimits,
  knowledgeUpload,
  publicAssistantServerMessages,
  qaLimits,
  qaMessages,
  requestBodyLimits,
  requestMessages,
  upload,
} from "../../contract";
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
const avatarCap: BodyCap = {
  bytes: assistantAvatar.maxBytes + MULTIPART_SLACK_BYTES,
  error: () => new AppError("PAYLOAD_TOO_LARGE", avatarMessages.tooLarge(Math.round(assistantAvatar.maxBytes / 1024))),
};

/**
 * The cap of a request's body, by its path under /api, whatever its declared content type: a
 * route reads its body whatever the client declared (a JSON route sent `multipart/form-data`, a
 * CORS-safelisted type, still parses it as JSON), so the type never lifts a cap. Only the two
 * upload routes, the curated answers' CSV import and the avatar get larger caps (contract `knowledgeUpload`, `upload`, `qaLimits`); the widget's messages and
 * the owner's Playground the widget's.
 */
export function bodyCapFor(method: string, path: string): BodyCap {
  if (method === "POST" && /^\/api\/public-assistants\/[^/]+\/files\/?$/.test(path)) return knowledgeUploadCap;
  if (method === "POST" && /^\/api\/chat\/attachments\/?$/.test(path)) return chatAttachmentCap;
  if (method === "POST" && /^\/api\/public-assistants\/[^/]+\/qa\/import\/?$/.test(path)) return qaImportCap;
  if (method === "PUT" && /^\/api\/public-assistants\/[^/]+\/avatar\/?$/.test(path)) return avatarCap;
  // A widget message carries its attachments' text; the owner's Playground sends the same message plus its earlier turns.
  if (path.startsWith("/api/widget/") || (method === "POST" && /^\/api\/public-assistants\/[^/]+\/playground\/?$/.test(path))) {
    return jsonCap(requestBodyLimits.widgetBytes);
  }
  if (path.startsWith("/api/v1/")) return jsonCap(requestBodyLimits.openAiBytes);
  // A text snippet's content at its character limit may weigh more than the default cap.
  if ((method === "POST" || method === "PUT") && /^\/api\/public-assistants\/[^/]+\/texts(\/[^/]+)?\/?$/.test(path)) return jsonCap(knowledgeTextLimits.maxRequestBytes);
  if (method === "POST" && /^\/api\/chat\/frames\/?$/.test(path)) return jsonCap(requestBodyLimits.chatFrameBytes);
  return jsonCap(requestBodyLimits.defaultBytes);
}

/**
 * Caps every /api request body: a declared Content-Length over the cap is refused before a byte
 * is read; a body without one (chunked) is counted while it streams and refused once past the cap,
 * uploads included (their routes then read the counted copy). Either way the answer is 413 with
 * the envelope and a message naming the limit. A chunked body past its cap is read to its end
 * (`readCapped`, to a bound) before the 413: answered while the client is still sending, the
 * upload breaks, and wrangler dev then fails the next request with its plain-text 503. A declared
 * length needs none of that: the 413 is sent before the body, which is never read (cancelling it
 * would reset the connection before the client reads the 413).
 */
export async function capRequestBody(c: Context<AppEnv>, next: Next) {
  const body = c.req.raw.body;
  if (!body) return next();
  const cap = bodyCapFor(c.req.method, c.req.path);
  const declared = c.req.raw.headers.get("content-length");
  if (declared !== null && !c.req.raw.headers.has("transfer-encoding")) {
    if (Number.parseInt(declared, 10) > cap.bytes) throw cap.error();
    return next();
  }
  const chunks = await readCapped(body, cap.bytes);
  if (!chunks) throw cap.error();
  // The chunks as read, not copied into one buffer: a body at its cap is held once, not twice.
  const replay = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  c.req.raw = new Request(c.req.raw, { body: replay, duplex: "half" } as RequestInit);
  return next();
}

/**
 * The whole body's chunks when it is at most `maxBytes`; null past that, once the rest of it is
 * read and dropped (at most `drainBytes` more, then it is cancelled).
 */
export async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number, drainBytes: number = requestBodyLimits.drainBytes): Promise<Uint8Array[] | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await drain(reader, drainBytes);
      return null;
    }
    chunks.push(value);
  }
  return chunks;
}

/** Reads and drops the rest of a body, at most `maxBytes` of it; a longer one is cancelled. Never throws. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): Promise<void> {
  try {
    for (let dropped = 0; dropped <= maxBytes; ) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to keep usable.
  }
}
