import * as XLSX from "xlsx";
import { knowledgeLimits, knowledgeMessages } from "../../../contract";
import { KnowledgeError } from "../errors";
import type { ExtractedDocument } from "../types";
import { BlockCollector, TableWriter } from "./collector";

/**
 * Options for SheetJS 0.18.5 on untrusted input: values only (no formulas, HTML, styles, VBA,
 * properties), dense rows, and a row cap per sheet. SheetJS 0.18.5 has known prototype-pollution
 * (CVE-2023-30533) and ReDoS (CVE-2024-22363) issues: we read only strings out of its objects,
 * never merge them into ours, check the built-in prototypes after every read (`withPrototypeGuard`),
 * and rely on the 15 MB input cap plus the Worker's CPU limit to bound a pathological file.
 */
const readOptions: XLSX.ParsingOptions = {
  type: "array",
  dense: true,
  cellFormula: false,
  cellHTML: false,
  cellStyles: false,
  cellNF: false,
  cellDates: false,
  bookVBA: false,
  bookDeps: false,
  bookFiles: false,
  bookProps: false,
  bookSheets: false,
  sheetStubs: false,
  sheetRows: knowledgeLimits.maxSheetRows,
  WTF: false,
};

const guarded = [Object.prototype, Array.prototype, Function.prototype, String.prototype] as const;

/**
 * Runs `read` and then checks no property was added to a built-in prototype; if one was (a
 * crafted workbook exploiting the parser), the properties are removed and the read fails.
 */
export function withPrototypeGuard<T>(read: () => T): T {
  const before = guarded.map((proto) => new Set(Reflect.ownKeys(proto)));
  let result: T | undefined;
  let failure: unknown;
  try {
    result = read();
  } catch (error) {
    failure = error;
  }
  let polluted = false;
  guarded.forEach((proto, i) => {
    for (const key of Reflect.ownKeys(proto)) {
      if (!before[i]!.has(key)) {
        polluted = true;
        delete (proto as Record<PropertyKey, unknown>)[key];
      }
    }
  });
  if (polluted) throw new Error("prototype pollution attempt");
  if (failure !== undefined) throw failure;
  return result as T;
}

type Cell = { v?: unknown; w?: unknown } | undefined;

const cellText = (cell: Cell) => {
  if (!cell || typeof cell !== "object") return "";
  if (typeof cell.w === "string") return cell.w;
  const v = cell.v;
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? String(v) : "";
};

/**
 * Excel (.xlsx and .xls): each sheet becomes a "Sheet name" heading (level 2) followed by its rows
 * "Header: value; Header: value". Rows beyond `maxSheetRows` per sheet and cells beyond `maxCells`
 * per workbook are dropped, and the document is marked truncated.
 */
export function extractSpreadsheet(bytes: Uint8Array, name: string, out = new BlockCollector()): ExtractedDocument {
  let workbook: XLSX.WorkBook;
  try {
    workbook = withPrototypeGuard(() => XLSX.read(bytes, readOptions));
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (/password-protected|Encryption scheme unsupported/i.test(text)) {
      throw new KnowledgeError("password_protected", knowledgeMessages.passwordProtected(name), { cause: error });
    }
    const capped = out.guard.fromRangeError(error);
    if (capped) throw capped;
    throw new KnowledgeError("damaged", knowledgeMessages.damaged(name), { cause: error });
  }
  const sheetNames = Array.isArray(workbook.SheetNames) ? workbook.SheetNames.map(String) : [];
  let cells = 0;
  for (const sheetName of sheetNames) {
    if (out.full) break;
    if (!Object.hasOwn(workbook.Sheets, sheetName)) continue;
    const sheet = workbook.Sheets[sheetName] as unknown as Record<string, unknown>;
    if (typeof sheet["!fullref"] === "string" && sheet["!fullref"] !== sheet["!ref"]) out.cut();
    out.heading(sheetName, 2);
    const table = new TableWriter(out);
    for (const row of sheetRows(sheet)) {
      cells += row.length;
      if (cells > knowledgeLimits.maxCells) {
        out.cut();
        break;
      }
      if (!table.add(row)) break;
    }
    table.end();
  }
  return out.finish({ sheetCount: sheetNames.length });
}

/** The rows of a sheet as arrays of display strings, dense or sparse storage alike. */
function* sheetRows(sheet: Record<string, unknown>): Generator<string[]> {
  if (Array.isArray(sheet)) {
    for (const row of sheet as unknown[]) {
      if (!Array.isArray(row)) continue;
      const values: string[] = [];
      for (let c = 0; c < row.length; c++) values.push(cellText(row[c] as Cell));
      yield values;
    }
    return;
  }
  const ref = sheet["!ref"];
  if (typeof ref !== "string") return;
  const range = XLSX.utils.decode_range(ref);
  for (let r = range.s.r; r <= range.e.r; r++) {
    const values: string[] = [];
    for (let c = range.s.c; c <= range.e.c && c < range.s.c + 16_384; c++) {
      values.push(cellText(sheet[XLSX.utils.encode_cell({ r, c })] as Cell));
    }
    yield values;
  }
}
