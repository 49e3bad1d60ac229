import { knowledgeLimits } from "../../../contract";
import type { ExtractedDocument } from "../types";
import { BlockCollector, TableWriter } from "./collector";
import { ExtractGuard } from "./guard";

const candidates = [",", ";", "\t", "|"] as const;

/**
 * The delimiter of a CSV: the candidate found most often, outside quotes, on the first line
 * (Excel in many European locales writes `;`, exports from databases often use tabs).
 */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(candidates.map((c) => [c, 0]));
  let quoted = false;
  for (let i = 0; i < text.length && i < 65_536; i++) {
    const ch = text[i]!;
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ",";
  for (const c of candidates) if (counts.get(c)! > counts.get(best)!) best = c;
  return best;
}

/**
 * Parses CSV per RFC 4180 (quoted fields with doubled quotes, line breaks inside quotes, CRLF or
 * LF), calling `onRow` for each record until it returns false. Lenient where files in the wild
 * are: a stray quote inside an unquoted field is kept as text. Hostile input is fenced: a record
 * longer than `maxLineChars` or with more than `maxCellsPerRow` cells fails the file (`guard`)
 * before its cells pile up, so memory stays bounded by one legal record.
 */
export function parseCsv(text: string, delimiter: string, onRow: (cells: string[]) => boolean, guard = new ExtractGuard("file")): void {
  const maxLine = knowledgeLimits.maxLineChars;
  const maxCells = knowledgeLimits.maxCellsPerRow;
  let cells: string[] = [];
  let field = "";
  let i = 0;
  let rowStart = 0;
  const n = text.length;
  const endRow = () => {
    cells.push(field);
    field = "";
    const keepGoing = onRow(cells);
    cells = [];
    rowStart = i;
    return keepGoing;
  };
  while (i < n) {
    guard.tick();
    if (i - rowStart > maxLine) throw guard.lineTooLong();
    const ch = text[i]!;
    if (ch === '"' && field === "") {
      // Quoted field: read to the closing quote, "" is a literal quote.
      i++;
      let start = i;
      for (;;) {
        guard.tick();
        const q = text.indexOf('"', i);
        if ((q < 0 ? n : q) - rowStart > maxLine) throw guard.lineTooLong();
        if (q < 0) {
          field += text.slice(start);
          i = n;
          break;
        }
        if (text[q + 1] === '"') {
          field += text.slice(start, q + 1);
          i = q + 2;
          start = i;
          continue;
        }
        field += text.slice(start, q);
        i = q + 1;
        break;
      }
      continue;
    }
    if (ch === delimiter) {
      if (cells.length >= maxCells) throw guard.tooManyCells();
      cells.push(field);
      field = "";
      i++;
    } else if (ch === "\n" || ch === "\r") {
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
      if (!endRow()) return;
    } else {
      // Unquoted run up to the next delimiter or line end.
      let j = i;
      while (j < n && text[j] !== delimiter && text[j] !== "\n" && text[j] !== "\r") j++;
      if (j - rowStart > maxLine) throw guard.lineTooLong();
      field += text.slice(i, j);
      i = j;
    }
  }
  if (field !== "" || cells.length) endRow();
}

/** CSV: each record becomes a row "Header: value; Header: value" (see `TableWriter`). */
export function extractCsv(text: string, out = new BlockCollector()): ExtractedDocument {
  const table = new TableWriter(out);
  let rows = 0;
  parseCsv(text, detectDelimiter(text), (cells) => {
    if (++rows > knowledgeLimits.maxSheetRows) {
      out.cut();
      return false;
    }
    return table.add(cells);
  }, out.guard);
  table.end();
  return out.finish();
}
