import { knowledgeLimits } from "../../../contract";
import type { ExtractedDocument } from "../types";
import { inflateZipEntry, writeStoredZip, type ZipEntry } from "../zip";
import type { BlockCollector } from "./collector";
import { extractDocx } from "./docx";
import { extractDocxStreaming } from "./docx-stream";
import { extractSpreadsheet } from "./spreadsheet";
import { extractXlsxStreaming } from "./xlsx-stream";

/**
 * Element depth past which a part is not given to a recursive library (Word itself nests far less:
 * a table in a table in a table is a few dozen levels). mammoth recurses once or more per level.
 */
export const LIBRARY_MAX_DEPTH = 100;

/** Index of the first `needle` (ASCII) at or after `from` in `bytes`, or `bytes.length`. */
function skipPast(bytes: Uint8Array, from: number, needle: readonly number[]): number {
  const first = needle[0]!;
  for (let i = from; i < bytes.length; i++) {
    if (bytes[i] !== first) continue;
    let k = 1;
    while (k < needle.length && bytes[i + k] === needle[k]) k++;
    if (k === needle.length) return i + needle.length;
  }
  return bytes.length;
}

const COMMENT_END = [0x2d, 0x2d, 0x3e]; // -->
const CDATA_END = [0x5d, 0x5d, 0x3e]; // ]]>
const PI_END = [0x3f, 0x3e]; // ?>
const TAG_END = [0x3e]; // >

/**
 * True when the XML in `bytes` nests elements deeper than `limit`: one linear tag scan. A start tag
 * opens unless it ends "/>", an end tag closes (never below zero), and quoted attribute values,
 * comments, CDATA, processing instructions and declarations are skipped whole, so a "/>" or "</"
 * inside a value counts for nothing. Never a parse: only the depth the libraries would recurse to.
 */
export function nestedDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let i = 0;
  while (i < bytes.length) {
    if (bytes[i] !== 0x3c) {
      i++;
      continue;
    }
    const next = bytes[i + 1];
    if (next === 0x2f) {
      if (depth > 0) depth--;
      i = skipPast(bytes, i + 2, TAG_END);
    } else if (next === 0x3f) {
      i = skipPast(bytes, i + 2, PI_END);
    } else if (next === 0x21) {
      if (bytes[i + 2] === 0x2d && bytes[i + 3] === 0x2d) i = skipPast(bytes, i + 4, COMMENT_END);
      else if (bytes[i + 2] === 0x5b) i = skipPast(bytes, i + 2, CDATA_END);
      else i = skipPast(bytes, i + 2, TAG_END);
    } else {
      // A start tag: walk to its ">" outside quotes, remembering whether it ended "/>".
      let quote = 0;
      let last = 0;
      let j = i + 1;
      for (; j < bytes.length; j++) {
        const b = bytes[j]!;
        if (quote) {
          if (b === quote) quote = 0;
        } else if (b === 0x22 || b === 0x27) quote = b;
        else if (b === 0x3e) break;
        else if (b === 0x3c) break; // malformed: a new tag starts; count this one as open
        if (!quote && b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) last = b;
      }
      const selfClosing = j < bytes.length && bytes[j] === 0x3e && last === 0x2f;
      // An empty element sits one level deeper too; only a start tag stays open.
      if (depth + 1 > limit) return true;
      if (!selfClosing) depth++;
      i = j < bytes.length && bytes[j] === 0x3e ? j + 1 : j;
    }
  }
  return false;
}

/** The parts mammoth and SheetJS read for text: XML and relationships. Media, fonts, VBA are not. */
const textPart = /\.(xml|rels)$/i;

/**
 * Every text part of a docx/xlsx inflated by Tala (each byte counted by the file's guard), or null
 * as soon as they pass `maxBytes` together: then the file is too large for the in-memory
 * libraries and goes to a streaming reader. Other parts are kept as empty entries, so the
 * package's structure (relationships to images) is unchanged.
 */
export async function inflateTextParts(bytes: Uint8Array, entries: ZipEntry[], out: BlockCollector, maxBytes: number): Promise<{ name: string; data: Uint8Array }[] | null> {
  const parts: { name: string; data: Uint8Array }[] = [];
  let total = 0;
  for (const entry of entries) {
    out.guard.checkTime();
    if (entry.name.endsWith("/")) continue;
    if (!textPart.test(entry.name)) {
      parts.push({ name: entry.name, data: new Uint8Array(0) });
      continue;
    }
    const data = await inflateZipEntry(bytes, entry, out.guard, maxBytes - total);
    if (!data) return null;
    total += data.length;
    parts.push({ name: entry.name, data });
  }
  return parts;
}

/**
 * docx and xlsx. The sizes a zip declares are never trusted (a lying zip bomb claims a few bytes):
 * Tala inflates the text parts itself, counting, and only when they come to at most
 * `maxMammothXmlBytes` (docx) or `maxSheetJsXmlBytes` (xlsx) does the library get them, re-packed
 * as a zip of stored entries: it has nothing left to inflate, so its memory is bounded by those
 * figures. Larger files are streamed, every inflated byte counted against `maxOfficeXmlBytes`.
 */
export async function extractOffice(kind: "docx" | "xlsx", bytes: Uint8Array, entries: ZipEntry[], name: string, out: BlockCollector): Promise<ExtractedDocument> {
  const limit = kind === "docx" ? knowledgeLimits.maxMammothXmlBytes : knowledgeLimits.maxSheetJsXmlBytes;
  const parts = await inflateTextParts(bytes, entries, out, limit);
  // mammoth builds and walks the XML tree recursively: deeply nested markup (tables in tables…)
  // goes to the streaming reader, which only counts depth.
  if (parts && !(kind === "docx" && parts.some((p) => nestedDeeperThan(p.data, LIBRARY_MAX_DEPTH)))) {
    const stored = writeStoredZip(parts);
    return kind === "docx" ? await extractDocx(stored, name, out) : extractSpreadsheet(stored, name, out);
  }
  return kind === "docx" ? await extractDocxStreaming(bytes, entries, name, out) : await extractXlsxStreaming(bytes, entries, name, out);
}
