import { Hono } from "hono";
import {
  chatAttachmentField,
  chatGuestSessionHeader,
  chatLimits,
  chatMessages,
  guestSession,
  knowledgeMessages,
  upload,
  type ChatAttachmentResponse,
} from "../../../contract";
import { currentUser, optionalUser } from "../../http/auth";
import type { AppEnv } from "../../http/context";
import { AppError, invalid, unauthorized } from "../../http/errors";
import { throttle } from "../../http/throttle";
import { checkNameAndSize, displayName, extractFile, isKnowledgeError, sniffFile, type Block } from "../../knowledge";

/** Multipart overhead allowed above the file's own 15 MB before the body is refused unread. */
const MULTIPART_SLACK_BYTES = 64 * 1024;

/** The one file of the form's `file` field. */
async function uploadedFile(request: Request): Promise<File> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) throw invalid(chatMessages.attachmentNotMultipart);
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > upload.maxFileBytes + MULTIPART_SLACK_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", knowledgeMessages.fileTooLarge(displayName("")));
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw invalid(chatMessages.attachmentNotMultipart);
  }
  const files = form.getAll(chatAttachmentField).filter((v): v is File => typeof v !== "string");
  if (files.length !== 1) throw invalid(chatMessages.attachmentNotMultipart);
  return files[0]!;
}

/** Headings, paragraphs and rows as plain text: blank lines between blocks, rows one per line. */
function blocksToText(blocks: readonly Block[]): string {
  let text = "";
  let previous: Block["kind"] | null = null;
  for (const block of blocks) {
    const piece = block.text.trim();
    if (!piece) continue;
    if (text) text += previous === "row" && block.kind === "row" ? "\n" : "\n\n";
    text += piece;
    previous = block.kind;
    if (text.length > chatLimits.maxFileTextChars) break;
  }
  return text;
}

/** Extracts an attachment's text; every refusal is a KnowledgeError turned into its 413/415/422. */
async function extractAttachment(file: File): Promise<ChatAttachmentResponse> {
  const name = displayName(file.name);
  try {
    checkNameAndSize(name, file.size);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const sniffed = sniffFile({ name, bytes });
    const extracted = await extractFile(sniffed, bytes);
    const text = blocksToText(extracted.blocks);
    if (!text.trim()) throw new AppError("UNPROCESSABLE", knowledgeMessages.noExtractableText(name));
    const cut = text.length > chatLimits.maxFileTextChars;
    return { name, text: cut ? text.slice(0, chatLimits.maxFileTextChars) : text, truncated: cut || extracted.truncated };
  } catch (error) {
    if (isKnowledgeError(error)) {
      // An unexpected failure inside a parser must not show internals.
      const message = error.reason === "internal" ? knowledgeMessages.processingFailed(name) : error.message;
      throw new AppError(error.code, message);
    }
    throw error;
  }
}

/**
 * /api/chat/attachments: the text of a chat attachment (PDF, Word, Excel and the text kinds),
 * extracted by worker/knowledge and answered to the browser, which sends it with the message.
 * Nothing is stored. Open to signed-in users and to guests naming a valid guest session;
 * throttled per IP.
 */
export function chatAttachmentRoutes() {
  return new Hono<AppEnv>().post("/attachments", optionalUser, async (c) => {
    if (!currentUser(c)) {
      const guestId = c.req.header(chatGuestSessionHeader) ?? "";
      if (!guestId) throw unauthorized();
      if (!guestSession.idPattern.test(guestId)) throw unauthorized(chatMessages.guestIdInvalid);
    }
    await throttle(c, "chatAttachment", "chat-attachment");
    const file = await uploadedFile(c.req.raw);
    return c.json(await extractAttachment(file));
  });
}
