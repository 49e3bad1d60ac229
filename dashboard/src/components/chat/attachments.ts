/**
 * Files attached to a chat message: the knowledge-file types of the spec (section 5), 15 MB each,
 * at most chatLimits.maxFiles per message. Text formats are read here in the browser and their text
 * travels with the message; PDF, Word and Excel files would need the server to extract their text,
 * and the chat has no such endpoint, so they are refused with a clear message instead of being sent
 * as a name the model cannot read. Pure, so it is unit-tested.
 */
import { chatLimits, chatMessages, chatUi, upload } from "../../../../contract";
import { fileExtension, isAcceptedFileName, rejectionToast, type Rejection, type SelectedFile } from "../public-assistants/upload-selection";

/** The accepted types whose text the browser can read as it is. */
export const textExtensions = [".txt", ".md", ".csv", ".json", ".xml"] as const;

export const isTextFile = (name: string) => (textExtensions as readonly string[]).includes(fileExtension(name));

export interface AttachmentSelection<T extends SelectedFile> {
  /** Files to read and attach, in order. */
  accepted: T[];
  /** Wrong type or too large: the spec's 'Invalid file type' / 'File too large'. */
  rejected: Rejection[];
  /** Accepted types the browser cannot read (pdf, doc, docx, xls, xlsx). */
  unreadable: string[];
  /** Over the per-message limit. */
  overflow: string[];
}

/** Sorts a selection: what to read, what to refuse and why. `attached` is how many are already there. */
export function selectAttachments<T extends SelectedFile>(attached: number, incoming: readonly T[]): AttachmentSelection<T> {
  const result: AttachmentSelection<T> = { accepted: [], rejected: [], unreadable: [], overflow: [] };
  for (const file of incoming) {
    if (!isAcceptedFileName(file.name)) result.rejected.push({ name: file.name, reason: "type" });
    else if (file.size > upload.maxFileBytes) result.rejected.push({ name: file.name, reason: "size" });
    else if (!isTextFile(file.name)) result.unreadable.push(file.name);
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
  if (selection.unreadable.length) {
    toasts.push({ title: chatUi.attachmentUnreadableTitle, description: selection.unreadable.map(chatUi.attachmentUnreadable).join(" ") });
  }
  if (selection.overflow.length) toasts.push({ title: chatUi.tooManyAttachmentsTitle, description: chatMessages.tooManyFiles(chatLimits.maxFiles) });
  if (!toasts.length) return null;
  return { title: toasts[0]!.title, description: toasts.map((t) => t.description).join(" ") };
}

/** A text file's content as it travels on the socket: at most chatLimits.maxFileTextChars. */
export function clipAttachmentText(text: string): string {
  return text.length > chatLimits.maxFileTextChars ? text.slice(0, chatLimits.maxFileTextChars) : text;
}
