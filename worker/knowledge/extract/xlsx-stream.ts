import { knowledgeLimits, knowledgeMessages } from "../../../contract";
import { KnowledgeError } from "../errors";
import type { ExtractedDocument } from "../types";
import { readZipText, streamZipText, type ZipEntry } from "../zip";
import { BlockCollector, TableWriter, decodeEntities } from "./collector";
import type { ExtractGuard } from "./guard";
import { XmlStream, attribute } from "./xml-stream";

/** More sheets than any real workbook has (Excel's own limit is memory); the rest are not read. */
const MAX_SHEETS = 1_000;

/**
 * Excel (.xlsx) read as a stream, for workbooks too large for SheetJS inside a Worker (SheetJS
 * holds every sheet's XML and cell objects: ~7× their size). The shared strings are read once
 * (they are the workbook's text and must stay in memory), then each sheet is inflated and
 * scanned row by row into the same output as `extractSpreadsheet`: a heading per sheet and rows
 * "Header: value". Values are written as stored: numbers and dates unformatted (a date is its
 * serial number), booleans as TRUE/FALSE.
 */
export async function extractXlsxStreaming(bytes: Uint8Array, entries: ZipEntry[], name: string, out = new BlockCollector()): Promise<ExtractedDocument> {
  const guard = out.guard;
  const byName = new Map(entries.map((e) => [e.name, e]));
  const workbook = byName.get("xl/workbook.xml");
  if (!workbook) throw new KnowledgeError("damaged", knowledgeMessages.damaged(name));
  const sheets = await sheetList(bytes, workbook, byName.get("xl/_rels/workbook.xml.rels"), guard);
  const shared = byName.get("xl/sharedStrings.xml");
  const strings = shared ? await sharedStrings(bytes, shared, guard) : [];

  let cells = 0;
  for (const sheet of sheets) {
    if (out.full) break;
    const entry = byName.get(sheet.path);
    if (!entry) continue;
    out.heading(sheet.name, 2);
    const table = new TableWriter(out);
    let rows = 0;
    // Characters the sheet's cells refer to: a shared string is one object however many cells
    // name it, but each reference becomes text. Past the file's character budget the sheet stops.
    let referenced = 0;
    let row: string[] | null = null;
    let column = 0;
    let type = "";
    let value = "";
    let inValue = false;
    let stop = false;
    const scanner = new XmlStream({
      open(tag, attributes, selfClosing) {
        if (tag === "row") {
          row = [];
          column = 0;
          if (selfClosing) row = null;
        } else if (tag === "c" && row) {
          if (row.length >= knowledgeLimits.maxCellsPerRow) throw guard.tooManyCells();
          const ref = attribute(attributes, "r");
          column = ref ? columnIndex(ref) : column;
          type = attribute(attributes, "t") ?? "n";
          value = "";
        } else if ((tag === "v" || tag === "t") && !selfClosing) inValue = true;
      },
      close(tag) {
        if (tag === "v" || tag === "t") inValue = false;
        else if (tag === "c" && row) {
          const text = decodeEntities(value);
          const cellValue = type === "s" ? (strings[Number(text)] ?? "") : type === "b" ? (text === "1" ? "TRUE" : "FALSE") : type === "e" ? "" : text;
          referenced += cellValue.length;
          if (referenced > knowledgeLimits.maxExtractedChars && !stop) {
            out.cut();
            stop = true;
          }
          if (!stop) row[column] = cellValue;
          column++;
        } else if (tag === "row" && row && !stop) {
          cells += row.length;
          if (++rows > knowledgeLimits.maxSheetRows || cells > knowledgeLimits.maxCells) {
            out.cut();
            stop = true;
          } else if (!table.add(Array.from(row, (v) => v ?? ""))) stop = true;
          row = null;
        }
      },
      text(raw) {
        if (!inValue) return;
        value += raw;
        if (value.length > knowledgeLimits.maxLineChars) throw guard.lineTooLong();
      },
    }, () => guard.lineTooLong());
    await streamZipText(bytes, entry, guard, (text) => {
      guard.checkTime();
      scanner.push(text);
      return !stop;
    });
    table.end();
  }
  return out.finish({ sheetCount: sheets.length });
}

/** "B7" → 1 (zero-based column of a cell reference). */
export function columnIndex(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
  }
  return Math.min(Math.max(n - 1, 0), 16_383);
}

/** A small part read whole: capped, so a bomb disguised as the workbook part fails early. */
const readSmallPart = (bytes: Uint8Array, entry: ZipEntry, guard: ExtractGuard) =>
  readZipText(bytes, entry, guard, knowledgeLimits.maxMammothXmlBytes, () => guard.lineTooLong());

async function sheetList(bytes: Uint8Array, workbook: ZipEntry, rels: ZipEntry | undefined, guard: ExtractGuard): Promise<{ name: string; path: string }[]> {
  const targets = new Map<string, string>();
  if (rels) {
    const xml = await readSmallPart(bytes, rels, guard);
    // [^<>]*, not [^>]*: an unclosed tag must not make every later match rescan to the end.
    for (const m of xml.matchAll(/<Relationship\b([^<>]*)\/?>/g)) {
      const id = attribute(m[1]!, "Id");
      const target = attribute(m[1]!, "Target");
      if (id && target) targets.set(id, target.startsWith("/") ? target.slice(1) : `xl/${target.replace(/^\.\//, "")}`);
    }
  }
  const xml = await readSmallPart(bytes, workbook, guard);
  const sheets: { name: string; path: string }[] = [];
  let index = 1;
  for (const m of xml.matchAll(/<sheet\b([^<>]*)\/?>/g)) {
    if (sheets.length >= MAX_SHEETS) break;
    const name = attribute(m[1]!, "name") ?? `Sheet${index}`;
    const id = attribute(m[1]!, "r:id");
    sheets.push({ name, path: (id && targets.get(id)) || `xl/worksheets/sheet${index}.xml` });
    index++;
  }
  return sheets;
}

/**
 * The shared string table: each <si>'s text runs (phonetic hints <rPh> skipped), in order. Only
 * the first `maxCells` strings are kept (no workbook read has more cells than that) and one string
 * is capped like a line, so the table stays within the file's character budget.
 */
async function sharedStrings(bytes: Uint8Array, entry: ZipEntry, guard: ExtractGuard): Promise<string[]> {
  const strings: string[] = [];
  let current: string[] | null = null;
  let currentChars = 0;
  let inText = false;
  let phonetic = 0;
  let chars = 0;
  const scanner = new XmlStream({
    open(tag, _attributes, selfClosing) {
      if (tag === "si") {
        current = selfClosing ? null : [];
        currentChars = 0;
      }
      else if (tag === "rPh" && !selfClosing) phonetic++;
      else if (tag === "t" && !selfClosing && !phonetic) inText = true;
      if (tag === "si" && selfClosing && strings.length < knowledgeLimits.maxCells) strings.push("");
    },
    close(tag) {
      if (tag === "t") inText = false;
      else if (tag === "rPh") phonetic--;
      else if (tag === "si" && current) {
        // Past the character budget the strings are dropped: the rows using them would be cut anyway.
        const text = chars < knowledgeLimits.maxExtractedChars ? decodeEntities(current.join("")) : "";
        chars += text.length;
        if (strings.length < knowledgeLimits.maxCells) strings.push(text);
        current = null;
      }
    },
    text(raw) {
      if (!inText || !current) return;
      currentChars += raw.length;
      if (currentChars > knowledgeLimits.maxLineChars) throw guard.lineTooLong();
      current.push(raw);
    },
  }, () => guard.lineTooLong());
  await streamZipText(bytes, entry, guard, (text) => {
    guard.checkTime();
    scanner.push(text);
  });
  return strings;
}
