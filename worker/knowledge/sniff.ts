import { knowledgeLimits, knowledgeMessages, upload } from "../../contract";
import { CfbError, looksLikeCfb, openCfb } from "./cfb";
import { KnowledgeError } from "./errors";
import { nestingDepth } from "./extract/json";
import { textKinds, type KnowledgeKind } from "./types";
import { looksLikeZip, readZipDirectory, type ZipEntry } from "./zip";

/**
 * Decides what an uploaded file is from its name and its bytes, never from the declared MIME
 * type (browsers send `application/octet-stream`, `application/vnd.ms-excel` for CSV, or
 * nothing). The extension names the kind; the content must then prove it. Cheap: it reads
 * headers and directories only, except for text kinds, which it decodes once (the decoded text
 * is returned so extraction does not decode again).
 */

export interface SniffInput {
  /** The file's name as uploaded; only its last path segment is used. */
  name: string;
  /** The declared MIME type: recorded by the caller if it wants, never trusted here. */
  mimeType?: string | null;
  bytes: Uint8Array;
}

export interface SniffedFile {
  kind: KnowledgeKind;
  /** The display name used in messages (last path segment of `name`). */
  name: string;
  /** The canonical MIME type of the kind (the first of `upload.accepted[ext]`), to store and serve. */
  mimeType: string;
  size: number;
  /** Text kinds: the decoded text, byte-order mark removed. */
  text?: string;
  /** docx/xlsx: the zip's central directory, for the extractor's size guard. */
  zipEntries?: ZipEntry[];
}

/** JSON up to this many characters is parsed once here, so an invalid file is refused before it is stored. */
const JSON_CHECK_CHARS = 4_000_000;

const kindLabels: Record<KnowledgeKind, string> = {
  pdf: "PDF",
  txt: "text",
  md: "Markdown",
  csv: "CSV",
  json: "JSON",
  xml: "XML",
  doc: "Word (.doc)",
  docx: "Word (.docx)",
  xls: "Excel (.xls)",
  xlsx: "Excel (.xlsx)",
};

/** The last path segment of an uploaded name (`C:\fakepath\a.pdf` → `a.pdf`), trimmed. */
export function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop()?.trim() ?? "";
  return base || "This file";
}

/** The accepted kind named by a file's extension, or null (case-insensitive). */
export function kindFromName(name: string): KnowledgeKind | null {
  const dot = name.lastIndexOf(".");
  if (dot < 0) return null;
  const extension = name.slice(dot).toLowerCase();
  return Object.hasOwn(upload.accepted, extension) ? (extension.slice(1) as KnowledgeKind) : null;
}

/**
 * The checks a route can run before reading the body: an accepted extension and at most
 * `upload.maxFileBytes` bytes. Throws `KnowledgeError` (unsupported_type, too_large).
 */
export function checkNameAndSize(name: string, size: number): KnowledgeKind {
  const shown = displayName(name);
  const kind = kindFromName(shown);
  if (!kind) throw new KnowledgeError("unsupported_type", knowledgeMessages.unsupportedType(shown));
  if (size > upload.maxFileBytes) throw new KnowledgeError("too_large", knowledgeMessages.fileTooLarge(shown));
  return kind;
}

/** Decides the kind of an uploaded file, or throws a `KnowledgeError` saying why it is refused. */
export function sniffFile(input: SniffInput): SniffedFile {
  const { bytes } = input;
  const name = displayName(input.name);
  const kind = checkNameAndSize(name, bytes.byteLength);
  const mimeType = upload.accepted[`.${kind}`]![0]!;
  const base: SniffedFile = { kind, name, mimeType, size: bytes.byteLength };
  const notValid = () => new KnowledgeError("content_mismatch", knowledgeMessages.notValid(name, kindLabels[kind]));

  switch (kind) {
    case "pdf":
      if (!hasPdfHeader(bytes)) throw notValid();
      return base;
    case "docx":
    case "xlsx":
      return { ...base, zipEntries: checkOfficeZip(bytes, kind, name, notValid) };
    case "doc":
    case "xls":
      checkCfb(bytes, kind, name, notValid);
      return base;
    default:
      return { ...base, text: checkText(bytes, kind, name, notValid) };
  }
}

/** `%PDF-` within the first 1024 bytes, where readers look for it. */
function hasPdfHeader(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length - 5, 1024);
  for (let i = 0; i <= end; i++) {
    if (bytes[i] === 0x25 && bytes[i + 1] === 0x50 && bytes[i + 2] === 0x44 && bytes[i + 3] === 0x46 && bytes[i + 4] === 0x2d) return true;
  }
  return false;
}

const mainPart: Record<"docx" | "xlsx", RegExp> = {
  docx: /^word\/document\d*\.xml$/,
  xlsx: /^xl\/workbook\d*\.xml$/,
};

function checkOfficeZip(bytes: Uint8Array, kind: "docx" | "xlsx", name: string, notValid: () => KnowledgeError): ZipEntry[] {
  if (!looksLikeZip(bytes)) {
    // Office encrypts a password-protected docx/xlsx into an OLE container (EncryptedPackage).
    if (looksLikeCfb(bytes) && cfbHas(bytes, "EncryptedPackage")) {
      throw new KnowledgeError("password_protected", knowledgeMessages.passwordProtected(name));
    }
    throw notValid();
  }
  const entries = readZipDirectory(bytes);
  if (!entries) throw new KnowledgeError("damaged", knowledgeMessages.damaged(name));
  const names = new Set(entries.map((e) => e.name));
  if (!names.has("[Content_Types].xml") || !entries.some((e) => mainPart[kind].test(e.name))) throw notValid();
  return entries;
}

function cfbHas(bytes: Uint8Array, stream: string): boolean {
  try {
    return openCfb(bytes).has(stream);
  } catch {
    return false;
  }
}

function checkCfb(bytes: Uint8Array, kind: "doc" | "xls", name: string, notValid: () => KnowledgeError): void {
  if (!looksLikeCfb(bytes)) throw notValid();
  let streams: Set<string>;
  try {
    streams = new Set(openCfb(bytes).entries.filter((e) => e.type === 2).map((e) => e.name.toLowerCase()));
  } catch (error) {
    if (error instanceof CfbError) throw new KnowledgeError("damaged", knowledgeMessages.damaged(name), { cause: error });
    throw error;
  }
  if (streams.has("encryptedpackage")) throw new KnowledgeError("password_protected", knowledgeMessages.passwordProtected(name));
  const ok = kind === "doc" ? streams.has("worddocument") : streams.has("workbook") || streams.has("book");
  if (!ok) throw notValid();
}

function checkText(bytes: Uint8Array, kind: KnowledgeKind, name: string, notValid: () => KnowledgeError): string {
  if (!textKinds.has(kind)) throw new Error(`not a text kind: ${kind}`);
  if (looksLikeZip(bytes) || looksLikeCfb(bytes) || hasPdfHeaderAtStart(bytes)) throw notValid();
  const text = decodeText(bytes, name);
  // A large JSON file is checked while it is extracted, element by element (extract/json.ts):
  // parsing 15 MB whole here would build the very object tree extraction avoids.
  if (kind === "json" && text.length <= JSON_CHECK_CHARS) {
    // Depth first (one linear scan): a million nested arrays must not reach JSON.parse.
    if (nestingDepth(text, knowledgeLimits.maxNestingDepth) > knowledgeLimits.maxNestingDepth) {
      throw new KnowledgeError("too_complex", knowledgeMessages.nestedTooDeep(name, knowledgeLimits.maxNestingDepth));
    }
    try {
      JSON.parse(text);
    } catch (error) {
      throw new KnowledgeError("invalid_json", knowledgeMessages.invalidJson(name), { cause: error });
    }
  }
  if (kind === "xml" && !/^\s*<(\?xml|!--|!DOCTYPE|[A-Za-z_:])/.test(text.slice(0, 4096))) throw notValid();
  return text;
}

const hasPdfHeaderAtStart = (bytes: Uint8Array) => bytes.length >= 5 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46;

/** UTF-8 (BOM optional) or UTF-16 with a BOM, strictly; a NUL anywhere means binary data. */
export function decodeText(bytes: Uint8Array, name: string): string {
  const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  if (!utf16 && bytes.indexOf(0) !== -1) throw new KnowledgeError("invalid_encoding", knowledgeMessages.binaryText(name));
  let text: string;
  try {
    // The decoder drops the byte-order mark itself (ignoreBOM: false). workerd's TextDecoder is
    // not guaranteed to know utf-16be, so big-endian input is swapped to little-endian first.
    text = utf16
      ? new TextDecoder("utf-16le", { fatal: true }).decode(bytes[0] === 0xfe ? swapBytePairs(bytes) : bytes)
      : new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new KnowledgeError("invalid_encoding", knowledgeMessages.notUtf8(name), { cause: error });
  }
  if (utf16 && text.includes("\u0000")) throw new KnowledgeError("invalid_encoding", knowledgeMessages.binaryText(name));
  return text;
}

function swapBytePairs(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    out[i] = bytes[i + 1]!;
    out[i + 1] = bytes[i]!;
  }
  if (bytes.length % 2) out[bytes.length - 1] = bytes[bytes.length - 1]!;
  return out;
}
