/**
 * Choosing files for a knowledge base (spec section 5): only the contract's extensions, at most
 * 15 MB each. A rejected file is dropped with its own message; the valid files of the same selection
 * are still queued. Pure, so it is unit-tested.
 */
import { acceptedExtensions, knowledgeUpload, publicAssistantMessages as M, upload } from "../../../../contract";

/** What the checks need of a File (a File satisfies it). */
export interface SelectedFile {
  name: string;
  size: number;
  lastModified?: number;
}

export type RejectionReason = "type" | "size";
export interface Rejection {
  name: string;
  reason: RejectionReason;
}

/** The lower-case extension with its dot ('.pdf'), or '' when the name has none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

export function isAcceptedFileName(name: string): boolean {
  return acceptedExtensions.includes(fileExtension(name));
}

/** The same file picked twice (same name, size and modification time) is queued once. */
const sameFile = (a: SelectedFile, b: SelectedFile) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

/**
 * Adds `incoming` to `queued`: wrong types and files over the size limit are rejected (type is
 * checked first), duplicates of a queued file are skipped, the rest are appended in order.
 */
export function addToQueue<T extends SelectedFile>(queued: readonly T[], incoming: readonly T[]): { queue: T[]; rejected: Rejection[] } {
  const queue = [...queued];
  const rejected: Rejection[] = [];
  for (const file of incoming) {
    if (!isAcceptedFileName(file.name)) rejected.push({ name: file.name, reason: "type" });
    else if (file.size > upload.maxFileBytes) rejected.push({ name: file.name, reason: "size" });
    else if (!queue.some((q) => sameFile(q, file))) queue.push(file);
  }
  return { queue, rejected };
}

/**
 * The toast for rejected files: the spec's title and message. Several rejections share one toast
 * (only one shows at a time): the first one's title, every file's message.
 */
export function rejectionToast(rejected: readonly Rejection[]): { title: string; description: string } | null {
  const first = rejected[0];
  if (!first) return null;
  const title = first.reason === "type" ? M.invalidFileTypeTitle : M.fileTooLargeTitle;
  const description = rejected.map((r) => (r.reason === "type" ? M.invalidFileType(r.name) : M.fileTooLarge(r.name))).join(" ");
  return { title, description };
}

/**
 * Splits a queue into requests the server accepts: at most `maxFiles` files and `maxBytes` bytes
 * each (a single file over `maxBytes` still goes alone). Order is kept.
 */
export function planBatches<T extends { size: number }>(
  files: readonly T[],
  maxFiles: number = knowledgeUpload.maxFilesPerRequest,
  maxBytes: number = knowledgeUpload.maxRequestBytes,
): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const file of files) {
    if (current.length && (current.length >= maxFiles || bytes + file.size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.size;
  }
  if (current.length) batches.push(current);
  return batches;
}
