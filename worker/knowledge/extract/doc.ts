/* eslint-disable no-control-regex -- Word marks paragraphs, cells and fields with control characters: they are the data here. */
import { knowledgeMessages } from "../../../contract";
import { CfbError, openCfb } from "../cfb";
import { KnowledgeError } from "../errors";
import type { ExtractedDocument } from "../types";
import { BlockCollector, TableWriter } from "./collector";

/**
 * Legacy Word (.doc, Word 97–2003) per [MS-DOC]: the File Information Block at the start of the
 * WordDocument stream points (fcClx/lcbClx) into the table stream (0Table or 1Table, by
 * fWhichTblStm) at the CLX, whose piece table maps character positions to byte ranges of the
 * WordDocument stream, each piece either "compressed" (one byte per character, Windows-1252) or
 * UTF-16LE. Only the main document text (the first ccpText characters) is read: footnotes,
 * headers and text boxes are left out. Styles are not read, so a .doc yields no headings; table
 * cells (ended by 0x07) become rows. Word 95 and older files are refused with their own reason.
 */

const FIB_IDENT = 0xa5ec;
const NFIB_WORD97 = 0x00c0;
const F_ENCRYPTED = 0x0100;
const F_WHICH_TABLE_STREAM = 0x0200;
const F_OBFUSCATED = 0x8000;
/** fcClx is the 34th fc/lcb pair of FibRgFcLcb97. */
const CLX_PAIR_INDEX = 33;

/** Windows-1252 for 0x80–0x9F (the rest of the byte range is Latin-1). */
const cp1252High = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function decodeCompressed(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += 16_384) {
    const slice = bytes.subarray(at, at + 16_384);
    const codes = new Uint16Array(slice.length);
    for (let i = 0; i < slice.length; i++) {
      const b = slice[i]!;
      codes[i] = b >= 0x80 && b <= 0x9f ? cp1252High[b - 0x80]! : b;
    }
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join("");
}

/** The main-document text of a .doc, with Word's control characters still in it. */
export function readDocText(bytes: Uint8Array, name: string): string {
  const damaged = (cause?: unknown) => new KnowledgeError("damaged", knowledgeMessages.damaged(name), { cause });
  let wordDocument: Uint8Array | null;
  let container: ReturnType<typeof openCfb>;
  try {
    container = openCfb(bytes);
    wordDocument = container.read("WordDocument");
  } catch (error) {
    if (error instanceof CfbError) throw damaged(error);
    throw error;
  }
  if (!wordDocument || wordDocument.length < 0x200) throw damaged();
  const fib = new DataView(wordDocument.buffer, wordDocument.byteOffset, wordDocument.byteLength);
  if (fib.getUint16(0, true) !== FIB_IDENT) throw damaged();
  if (fib.getUint16(2, true) < NFIB_WORD97) throw new KnowledgeError("unsupported_version", knowledgeMessages.oldWordFormat(name));
  const flags = fib.getUint16(0x0a, true);
  if (flags & (F_ENCRYPTED | F_OBFUSCATED)) throw new KnowledgeError("password_protected", knowledgeMessages.passwordProtected(name));

  // FibBase (32 bytes), then three length-prefixed arrays: FibRgW, FibRgLw, FibRgFcLcb.
  const csw = fib.getUint16(32, true);
  const rgLw = 34 + csw * 2 + 2;
  const cslw = fib.getUint16(rgLw - 2, true);
  const ccpText = fib.getInt32(rgLw + 12, true);
  const rgFcLcb = rgLw + cslw * 4 + 2;
  const cbRgFcLcb = fib.getUint16(rgFcLcb - 2, true);
  if (cbRgFcLcb <= CLX_PAIR_INDEX || rgFcLcb + (CLX_PAIR_INDEX + 1) * 8 > wordDocument.length) throw damaged();
  const fcClx = fib.getUint32(rgFcLcb + CLX_PAIR_INDEX * 8, true);
  const lcbClx = fib.getUint32(rgFcLcb + CLX_PAIR_INDEX * 8 + 4, true);

  const table = container.read(flags & F_WHICH_TABLE_STREAM ? "1Table" : "0Table");
  if (!table || lcbClx === 0 || fcClx + lcbClx > table.length || ccpText < 0) throw damaged();
  const clx = table.subarray(fcClx, fcClx + lcbClx);
  const cd = new DataView(clx.buffer, clx.byteOffset, clx.byteLength);
  let p = 0;
  // Skip the Prc entries (property modifiers), to the Pcdt (0x02) holding the piece table.
  while (p < clx.length && clx[p] === 0x01) p += 3 + cd.getUint16(p + 1, true);
  if (p + 5 > clx.length || clx[p] !== 0x02) throw damaged();
  const lcb = cd.getUint32(p + 1, true);
  const plc = p + 5;
  if (plc + lcb > clx.length || (lcb - 4) % 12 !== 0) throw damaged();
  const pieces = (lcb - 4) / 12;

  const parts: string[] = [];
  for (let i = 0; i < pieces; i++) {
    const cpStart = cd.getUint32(plc + i * 4, true);
    const cpEnd = Math.min(cd.getUint32(plc + (i + 1) * 4, true), ccpText);
    if (cpStart >= ccpText) break;
    if (cpEnd <= cpStart) continue;
    const fcValue = cd.getUint32(plc + (pieces + 1) * 4 + i * 8 + 2, true);
    const compressed = (fcValue & 0x40000000) !== 0;
    const fc = fcValue & 0x3fffffff;
    const count = cpEnd - cpStart;
    if (compressed) {
      const start = fc / 2;
      if (start + count > wordDocument.length) throw damaged();
      parts.push(decodeCompressed(wordDocument.subarray(start, start + count)));
    } else {
      if (fc + count * 2 > wordDocument.length) throw damaged();
      parts.push(new TextDecoder("utf-16le").decode(wordDocument.subarray(fc, fc + count * 2)));
    }
  }
  return parts.join("");
}

/** Drops field codes (0x13 … 0x14) and keeps field results (0x14 … 0x15), nesting respected. */
export function stripFields(text: string): string {
  if (!text.includes("\u0013")) return text;
  const out: string[] = [];
  // One entry per open field: true while still in its code part.
  const stack: boolean[] = [];
  let inCode = 0;
  let last = 0;
  for (const match of text.matchAll(/[\u0013\u0014\u0015]/g)) {
    const at = match.index;
    if (inCode === 0) out.push(text.slice(last, at));
    last = at + 1;
    if (match[0] === "\u0013") {
      stack.push(true);
      inCode++;
    } else if (match[0] === "\u0014") {
      if (stack[stack.length - 1]) {
        stack[stack.length - 1] = false;
        inCode--;
      }
    } else if (stack.length && stack.pop()) inCode--;
  }
  if (inCode === 0) out.push(text.slice(last));
  return out.join("");
}

/** Word's special characters to plain text; paragraph (\r) and cell (\x07) marks are kept. */
function cleanChars(text: string): string {
  return text
    .replace(/\u000b/g, "\n")
    .replace(/\u000c/g, "\r")
    .replace(/\u001e/g, "-")
    .replace(/[\u0000-\u0006\u0008\u000e-\u001d\u001f]/g, "");
}

export function extractDoc(bytes: Uint8Array, name: string, out = new BlockCollector()): ExtractedDocument {
  const text = cleanChars(stripFields(readDocText(bytes, name)));
  let buffer = "";
  let cells: string[] = [];
  let columns = 0;
  let table: TableWriter | null = null;
  // Segments of text, each ended by a paragraph mark (\r), a cell mark (\x07) or the end.
  for (const [, segment = "", mark = ""] of text.matchAll(/([^\r\u0007]*)([\r\u0007]|$)/g)) {
    if (out.full || (!segment && !mark)) break;
    buffer += segment;
    if (mark === "\u0007") {
      // A cell ends with 0x07; the row ends with one more 0x07 (its own row-end mark). Empty
      // cells look alike, so after the first row the column count decides.
      const rowEnd = buffer === "" && cells.length > 0 && (columns === 0 || cells.length >= columns);
      if (rowEnd) {
        table ??= new TableWriter(out);
        if (columns === 0) columns = cells.length;
        table.add(cells);
        cells = [];
      } else {
        cells.push(buffer);
      }
      buffer = "";
    } else if (mark === "\r") {
      if (cells.length) {
        // A paragraph mark inside a cell: the cell goes on.
        buffer += "\n";
        continue;
      }
      if (table) {
        table.end();
        table = null;
        columns = 0;
      }
      out.paragraph(buffer);
      buffer = "";
    }
  }
  if (table) table.end();
  if (buffer) out.paragraph(buffer);
  return out.finish();
}
