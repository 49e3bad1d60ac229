import { qaLimits } from "../../../contract";

/**
 * The CSV of curated answers (question,answer,variants; variants split by "|"): a linear RFC 4180
 * reader (quoted fields with "" and line breaks, CRLF or LF, a BOM) that keeps each record's line,
 * and the writer of the export. Pure. The caller caps the file's bytes (qaLimits.maxImportBytes);
 * the reader stops after qaLimits.maxImportRows records, so memory stays bounded by the file.
 */

export type CsvRecord = { line: number; cells: string[] } | { line: number; malformed: true };

/** Records of `text`, header included, each with the line it starts on; at most `maxRecords` (then `more`). */
export function readCsv(text: string, maxRecords: number): { records: CsvRecord[]; more: boolean } {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let i = 0;
  let line = 1;
  while (i < src.length) {
    if (records.length >= maxRecords) return { records, more: true };
    const start = line;
    const cells: string[] = [];
    let malformed = false;
    for (;;) {
      let cell = "";
      if (src[i] === '"') {
        i++;
        for (;;) {
          const quote = src.indexOf('"', i);
          if (quote === -1) {
            malformed = true;
            line += countLines(src, i, src.length);
            i = src.length;
            break;
          }
          line += countLines(src, i, quote);
          cell += src.slice(i, quote);
          i = quote + 1;
          if (src[i] === '"') {
            cell += '"';
            i++;
          } else break;
        }
        // After the closing quote only a separator or the end of the record may come.
        if (i < src.length && src[i] !== "," && src[i] !== "\n" && src[i] !== "\r") {
          malformed = true;
          while (i < src.length && src[i] !== "\n") i++;
        }
      } else {
        let end = i;
        while (end < src.length && src[end] !== "," && src[end] !== "\n" && src[end] !== "\r") end++;
        cell = src.slice(i, end);
        if (cell.includes('"')) malformed = true;
        i = end;
      }
      cells.push(cell);
      if (src[i] === ",") {
        i++;
        continue;
      }
      if (src[i] === "\r") i++;
      if (src[i] === "\n") i++;
      line++;
      break;
    }
    // A blank line is no record.
    if (!malformed && cells.length === 1 && cells[0] === "") continue;
    records.push(malformed ? { line: start, malformed: true } : { line: start, cells });
  }
  return { records, more: false };
}

function countLines(src: string, from: number, to: number): number {
  let n = 0;
  for (let at = src.indexOf("\n", from); at !== -1 && at < to; at = src.indexOf("\n", at + 1)) n++;
  return n;
}

/** Whether the first record names the columns (case and spaces aside; `variants` may be left out). */
export function isQaHeader(cells: readonly string[]): boolean {
  const names = cells.map((c) => c.trim().toLowerCase());
  const [q, a, v] = qaLimits.csvColumns;
  return names[0] === q && names[1] === a && (names.length === 2 || (names[2] === v && names.length === 3));
}

/** A cell a spreadsheet would not run: text starting with = + - @ (or a tab or CR) gets a leading '. */
export function safeCell(text: string): string {
  const value = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The export: the header, then one row per pair, CRLF line ends. */
export function writeQaCsv(pairs: readonly { question: string; answer: string; variants: readonly string[] }[]): string {
  const rows = [qaLimits.csvColumns.join(",")];
  for (const p of pairs) rows.push([p.question, p.answer, p.variants.join(qaLimits.csvVariantSeparator)].map(safeCell).join(","));
  return `${rows.join("\r\n")}\r\n`;
}
