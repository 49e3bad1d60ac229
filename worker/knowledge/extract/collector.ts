import { knowledgeLimits } from "../../../contract";
import type { Block, ExtractedDocument } from "../types";
import { ExtractGuard } from "./guard";

/**
 * Gathers an extractor's blocks under the character and block budgets of a file. Once a budget is
 * spent it refuses more (`add` returns false) and the document is marked truncated, so an extractor
 * can stop reading early instead of building text nobody will index. It also carries the file's
 * `guard` (deadline, inflated bytes, hostile-input caps), so every reader has it at hand.
 */
export class BlockCollector {
  readonly blocks: Block[] = [];
  private chars = 0;
  truncated = false;

  constructor(
    private readonly maxChars: number = knowledgeLimits.maxExtractedChars,
    readonly guard: ExtractGuard = new ExtractGuard("file"),
    private readonly maxBlocks: number = knowledgeLimits.maxBlocks,
  ) {}

  get full(): boolean {
    return this.truncated;
  }

  heading(text: string, level: number): boolean {
    const clean = normalizeInline(text);
    return clean ? this.push({ kind: "heading", level: Math.min(Math.max(level, 1), 6), text: clean }) : !this.full;
  }

  paragraph(text: string): boolean {
    const clean = normalizeParagraph(text);
    return clean ? this.push({ kind: "paragraph", text: clean }) : !this.full;
  }

  row(text: string): boolean {
    const clean = normalizeInline(text);
    return clean ? this.push({ kind: "row", text: clean }) : !this.full;
  }

  /** Marks the document truncated (a row, cell or page limit was hit). */
  cut(): void {
    this.truncated = true;
  }

  finish(extra: Omit<ExtractedDocument, "blocks" | "truncated"> = {}): ExtractedDocument {
    return { blocks: this.blocks, truncated: this.truncated, ...extra };
  }

  private push(block: Block): boolean {
    if (this.truncated) return false;
    this.guard.tick();
    // A million one-letter paragraphs weigh far more than their text: blocks are budgeted too.
    if (this.chars + block.text.length > this.maxChars || this.blocks.length >= this.maxBlocks) {
      this.truncated = true;
      return false;
    }
    this.chars += block.text.length;
    this.blocks.push(block);
    return true;
  }
}

/** Characters per slice of `bySlices`. */
const SLICE_CHARS = 65_536;

/**
 * `edit(text)` applied slice by slice, each slice ending just before a position where `cutBefore`
 * holds (so no match of the edit's pattern straddles two slices; past twice the slice size the
 * cut is forced), then joined. V8's global `replace` returns a rope with a node per match: a
 * 4 MB paragraph of one-letter words became ~130 MB of string nodes. Each slice's result is
 * flattened at once (reading a character does it), so a rope never outlives its slice.
 */
export function bySlices(text: string, edit: (slice: string) => string, cutBefore: (text: string, at: number) => boolean): string {
  const flat = (s: string) => (s.charCodeAt(0), s);
  if (text.length <= SLICE_CHARS) return flat(edit(text));
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + SLICE_CHARS);
    const limit = Math.min(text.length, start + 2 * SLICE_CHARS);
    while (end < limit && !cutBefore(text, end)) end++;
    parts.push(flat(edit(text.slice(start, end))));
    start = end;
  }
  return parts.join("");
}

const isSpaceCode = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
/** Cut before a non-space: every whitespace run stays whole in one slice. */
export const beforeNonSpace = (text: string, at: number) => !isSpaceCode(text.charCodeAt(at));

/** Whitespace other than a lone space: a linear test, no backtracking. */
const needsInline = /[^\S ]| \s/;

/** One line: every run of whitespace becomes one space. */
export function normalizeInline(text: string): string {
  // Nothing to do (the usual case): the input itself, never a copy. A value shared by thousands of
  // cells must not become thousands of strings.
  if (!needsInline.test(text) && !(text.length && (isSpaceCode(text.charCodeAt(0)) || isSpaceCode(text.charCodeAt(text.length - 1))))) return text;
  return bySlices(text, (s) => s.replace(/\s+/g, " "), beforeNonSpace).trim();
}

/** Running text: line breaks kept (single), other whitespace runs collapsed, blank lines dropped. */
export function normalizeParagraph(text: string): string {
  const edit = (s: string) =>
    s
      .replace(/\r\n?/g, "\n")
      .replace(/[^\S\n]+/g, " ")
      .replace(/ ?\n[\s]*/g, "\n");
  return bySlices(text, edit, beforeNonSpace).trim();
}

const namedEntities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

const decodeSlice = (text: string) =>
  text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (all, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "";
    }
    return Object.hasOwn(namedEntities, ref) ? namedEntities[ref]! : all;
  });

/** Decodes XML/HTML character references; unknown named entities are left as written. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  // A reference starts with its only "&": cutting before one never splits a reference.
  return bySlices(text, decodeSlice, (t, at) => t.charCodeAt(at) === 0x26);
}

const numeric = /^[-+]?[\d.,\s%$€£]+$/;

/**
 * Turns table rows (first row the header when it looks like one) into row blocks
 * "Header: value; Header: value", skipping empty cells. A first row with an empty or numeric
 * cell is data, and the columns are named "Column 1", "Column 2"…
 */
export class TableWriter {
  private headers: string[] | null = null;
  rows = 0;

  constructor(private readonly out: BlockCollector) {}

  /** Sets the header row explicitly (a Markdown table's first line is one by syntax). */
  header(cells: readonly string[]): void {
    if (cells.length > knowledgeLimits.maxCellsPerRow) throw this.out.guard.tooManyCells();
    this.checkRowChars(cells, null);
    this.headers = cells.map(normalizeInline);
  }

  /**
   * Counts the characters the row would have ("Header: value; …", from the raw lengths, which
   * normalising only shrinks) before anything is built: one shared string of 1 M characters in
   * 16,384 cells would otherwise be a 16 G-character row. Past `maxLineChars` the file fails.
   */
  private checkRowChars(cells: readonly string[], headers: readonly string[] | null): void {
    let total = 0;
    for (let i = 0; i < cells.length; i++) {
      const length = cells[i]!.length;
      if (length === 0) continue;
      total += length + 4 + (headers ? (headers[i]?.length ?? 0) + 12 : 12);
      if (total > knowledgeLimits.maxLineChars) throw this.out.guard.lineTooLong();
    }
  }

  /** Adds one row; returns false once the collector is full. */
  add(cells: readonly string[]): boolean {
    // Readers cap cells while parsing; this is the last fence for every table kind alike.
    if (cells.length > knowledgeLimits.maxCellsPerRow) throw this.out.guard.tooManyCells();
    this.checkRowChars(cells, this.headers);
    const values = cells.map(normalizeInline);
    if (values.every((v) => v === "")) return !this.out.full;
    if (!this.headers) {
      const looksLikeHeader = values.every((v) => v !== "" && !numeric.test(v));
      this.headers = looksLikeHeader ? values : [];
      if (looksLikeHeader) return !this.out.full;
    }
    this.rows++;
    const parts: string[] = [];
    values.forEach((value, i) => {
      if (value !== "") parts.push(`${this.headers![i] || `Column ${i + 1}`}: ${value}`);
    });
    return this.out.row(parts.join("; "));
  }

  /** A table whose only row was taken as its header still says what it holds. */
  end(): void {
    if (this.headers && this.headers.length && this.rows === 0) this.out.row(this.headers.join("; "));
    this.headers = null;
    this.rows = 0;
  }
}
