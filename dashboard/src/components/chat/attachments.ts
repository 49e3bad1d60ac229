/**
 * Files attached to a chat message: the knowledge-file types of the spec (section 5), 15 MB each,
 * at most chatLimits.maxFiles per message. Text formats are read here in the browser; PDF, Word and
 * Excel files are sent to POST /api/chat/attachments, which extracts their text (nothing is stored).
 * Either way the text travels with the message. Pure (fetch and credentials are injected), so it is
 * unit-tested.
 */
import {
  chatAttachmentField,
  chatAttachmentResponseSchema,
  chatAttachmentsPath,
  chatGuestSessionHeader,
  chatLimits,
  chatMessages,
  chatUi,
  errorBodySchema,
  publicAssistantMessages,
  upload,
} from "../../../../contract";
import { fileExtension, isAcceptedFileName, rejectionToast, type Rejection, type SelectedFile } from "../public-assistants/upload-selection";

/** The accepted types whose text the browser can read as it is. */
export const textExtensions = [".txt", ".md", ".csv", ".json", ".xml"] as const;

export const isTextFile = (name: string) => (textExtensions as readonly string[]).includes(fileExtension(name));

/** Longest wait for the server to extract a file's text (a large PDF takes seconds). */
export const extractionTimeoutMs = 60_000;

export interface AttachmentSelection<T extends SelectedFile> {
  /** Files to read and attach, in order. */
  accepted: T[];
  /** Wrong type or too large: the spec's 'Invalid file type' / 'File too large'. */
  rejected: Rejection[];
  /** Over the per-message limit. */
  overflow: string[];
}

/** Sorts a selection: what to read, what to refuse and why. `attached` is how many are already there. */
export function selectAttachments<T extends SelectedFile>(attached: number, incoming: readonly T[]): AttachmentSelection<T> {
  const result: AttachmentSelection<T> = { accepted: [], rejected: [], overflow: [] };
  for (const file of incoming) {
    if (!isAcceptedFileName(file.name)) result.rejected.push({ name: file.name, reason: "type" });
    else if (file.size > upload.maxFileBytes) result.rejected.push({ name: file.name, reason: "size" });
    else if (attached + result.accepted.length >= chatLimits.maxFiles) result.overflow.push(file.name);
    else result.accepted.push(file);
  }
  return result;
}

export interface ToastText {
  title: string;
  description: string;
}

/**
 * The toast for a selection's refusals, or null: only one toast shows at a time, so it has the
 * first refusal's title and every refused file's message.
 */
export function selectionToast(selection: AttachmentSelection<SelectedFile>): ToastText | null {
  const toasts: ToastText[] = [];
  const rejected = rejectionToast(selection.rejected);
  if (rejected) toasts.push(rejected);
  if (selection.overflow.length) toasts.push({ title: chatUi.tooManyAttachmentsTitle, description: chatMessages.tooManyFiles(chatLimits.maxFiles) });
  if (!toasts.length) return null;
  return { title: toasts[0]!.title, description: toasts.map((t) => t.description).join(" ") };
}

/** A text file's content as it travels on the socket: at most chatLimits.maxFileTextChars. */
export function clipAttachmentText(text: string): string {
  return text.length > chatLimits.maxFileTextChars ? text.slice(0, chatLimits.maxFileTextChars) : text;
}

/** What reading one file needs besides the file: injectable so it is unit-tested. */
export interface ReadDeps {
  fetch: typeof fetch;
  /** The Authorization header of a signed-in user, or null. */
  authorization: () => string | null;
  /** The guest session id of a guest, or null. */
  guestSessionId: () => string | null;
}

export type ReadResult = { ok: true; attachment: { name: string; text: string } } | { ok: false; toast: ToastText };

/** The toast for a file the server refused: the spec's titles for type and size, the server's `error` as text. */
export function serverRefusalToast(name: string, status: number, error: string | null): ToastText {
  const title =
    status === 415 ? publicAssistantMessages.invalidFileTypeTitle : status === 413 ? publicAssistantMessages.fileTooLargeTitle : chatUi.attachmentUnreadableTitle;
  return { title, description: error ?? chatUi.attachmentReadFailed(name) };
}

/**
 * Reads one accepted file's text: text formats in the browser, the others through
 * POST /api/chat/attachments (as the signed-in user, or the guest named by X-Guest-Session-Id).
 * Never throws: a failure comes back as the toast to show.
 */
export async function readAttachment(file: File, deps: ReadDeps): Promise<ReadResult> {
  const failed = (error: string | null = null, status = 0): ReadResult => ({ ok: false, toast: serverRefusalToast(file.name, status, error) });
  if (isTextFile(file.name)) {
    try {
      return { ok: true, attachment: { name: file.name, text: clipAttachmentText(await file.text()) } };
    } catch {
      return failed();
    }
  }
  const headers: Record<string, string> = { accept: "application/json" };
  const auth = deps.authorization();
  const guest = deps.guestSessionId();
  if (auth) headers.authorization = auth;
  else if (guest) headers[chatGuestSessionHeader] = guest;
  const body = new FormData();
  body.append(chatAttachmentField, file, file.name);
  let res: Response;
  try {
    res = await deps.fetch(chatAttachmentsPath, { method: "POST", headers, body, credentials: "include", signal: AbortSignal.timeout(extractionTimeoutMs) });
  } catch {
    return failed();
  }
  let payload: unknown = null;
  try {
    payload = await res.json();
  } catch {
    // no JSON body: the generic message below
  }
  if (!res.ok) {
    const envelope = errorBodySchema.safeParse(payload);
    return failed(envelope.success ? envelope.data.error : null, res.status);
  }
  const parsed = chatAttachmentResponseSchema.safeParse(payload);
  if (!parsed.success) return failed();
  return { ok: true, attachment: { name: file.name, text: clipAttachmentText(parsed.data.text) } };
}
