import * as C from "./contract";
import type { WidgetFileStrings } from "../../../contract/widget-strings";

/**
 * Attachments a visitor adds (only when the owner allows them): the spec's upload rules (types and
 * 15 MB) decide what is refused and with which message. The widget has no parser for PDF, Word or
 * Excel (they would multiply its size), so it reads only the text types and refuses the others
 * with the same "not a supported file type" message (files.test.ts: all five are upload types).
 */
export const readableExtensions = [".txt", ".md", ".csv", ".json", ".xml"];

export type AttachmentResult = { ok: true; file: { name: string; text: string } } | { ok: false; error: string };

export async function readAttachment(file: File, t: WidgetFileStrings): Promise<AttachmentResult> {
  const dot = file.name.lastIndexOf(".");
  const ext = dot < 0 ? "" : file.name.slice(dot).toLowerCase();
  if (!readableExtensions.includes(ext)) return { ok: false, error: t.invalidFileType(file.name) };
  if (file.size > C.maxFileBytes) return { ok: false, error: t.fileTooLarge(file.name) };
  try {
    // Only what can reach the server is read: at most 4 bytes a character.
    const text = (await file.slice(0, C.maxFileTextChars * 4).text()).slice(0, C.maxFileTextChars);
    return { ok: true, file: { name: file.name.slice(0, C.maxFileNameChars), text } };
  } catch {
    return { ok: false, error: t.invalidFileType(file.name) };
  }
}
