import { knowledgeMessages, knowledgeUpload, upload } from "../../../contract";
import { KnowledgeError, checkNameAndSize, displayName, sniffFile, type KnowledgeKind, type SniffedFile } from "../../knowledge";

/**
 * The checks an uploaded file passes before anything is stored: an accepted extension, at most
 * 15 MB, a declared type that fits the extension, and content that proves the kind (sniffed:
 * a `.pdf` that is really a zip is refused). Throws `KnowledgeError` with the owner-facing reason.
 */

const textKinds = new Set<KnowledgeKind>(["txt", "md", "csv", "json", "xml"]);
/** What browsers declare when they do not know a type; the content is sniffed anyway. */
const genericTypes = new Set(["", "application/octet-stream", "binary/octet-stream"]);
/** Some systems declare Office Open XML files as the zip they are. */
const zipTypes = new Set(["application/zip", "application/x-zip-compressed"]);

/** The owner's file name as shown and stored: last path segment, at most `maxFileNameChars` (extension kept). */
export function uploadedName(raw: string): string {
  const name = displayName(raw);
  const max = knowledgeUpload.maxFileNameChars;
  if (name.length <= max) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : "";
  return name.slice(0, max - extension.length) + extension;
}

/** True when the declared MIME type is one `upload.accepted` lists for the kind, or says nothing specific. */
export function declaredTypeFits(kind: KnowledgeKind, declared: string): boolean {
  const type = (declared.split(";")[0] ?? "").trim().toLowerCase();
  if (genericTypes.has(type)) return true;
  if (upload.accepted[`.${kind}`]?.includes(type)) return true;
  if (textKinds.has(kind) && type.startsWith("text/")) return true;
  return (kind === "docx" || kind === "xlsx") && zipTypes.has(type);
}

/** Name, size and declared type: what can be refused without reading the bytes. */
export function checkDeclaredFile(name: string, size: number, declaredType: string): KnowledgeKind {
  const kind = checkNameAndSize(name, size);
  if (!declaredTypeFits(kind, declaredType)) throw new KnowledgeError("unsupported_type", knowledgeMessages.unsupportedType(name));
  return kind;
}

/** The content check on the bytes (sniff). */
export const checkContent = (name: string, bytes: Uint8Array): SniffedFile => sniffFile({ name, bytes });
