import { knowledgeLimits } from "../../../contract";
import type { ExtractedDocument } from "../types";
import { inflateZipEntry, writeStoredZip, type ZipEntry } from "../zip";
import type { BlockCollector } from "./collector";
import { extractDocx } from "./docx";
import { extractDocxStreaming } from "./docx-stream";
import { extractSpreadsheet } from "./spreadsheet";
import { extractXlsxStreaming } from "./xlsx-stream";

/** Element depth past which a part is not given to a recursive library (Word itself nests far less). */
const LIBRARY_MAX_DEPTH = 500;

/**
 * True when the XML in `bytes` nests elements deeper than `limit`: one pass over the bytes, "<x"
 * opens, "</" and "/>" close ("<?" and "<!" neither). A heuristic on escaped Office XML, never a parse.
 */
export function nestedDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x3c) {
      const next = bytes[i + 1];
      if (next === 0x2f) depth--;
      else if (next !== 0x3f && next !== 0x21 && ++depth > limit) return true;
    } else if (b === 0x2f && bytes[i + 1] === 0x3e) depth--;
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
