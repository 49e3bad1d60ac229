import { knowledgeLimits } from "../../../contract";
import type { Block, ExtractedDocument } from "../types";

/**
 * Gathers an extractor's blocks under the character budget of a file. Once the budget is spent it
 * refuses more (`add` returns false) and the document is marked truncated, so an extractor can stop
 * reading early instead of building text nobody will index.
 */
export class BlockCollector {
  readonly blocks: Block[] = [];
  private chars = 0;
  truncated = false;

  constructor(private readonly maxChars: number = knowledgeLimits.maxExtractedChars) {}

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
    if (this.chars + block.text.length > this.maxChars) {
      this.truncated = true;
      return false;
    }
    this.chars += block.text.length;
    this.blocks.push(block);
    return true;
  }
}

/** One line: every run of whitespace becomes one space. */
export function normalizeInline(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Running text: line breaks kept (single), other whitespace runs collapsed, blank lines dropped. */
export function normalizeParagraph(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[^\S\n]+/g, " ")
    .replace(/ ?\n[\s]*/g, "\n")
    .trim();
}

const namedEntities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Decodes XML/HTML character references; unknown named entities are left as written. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (all, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "";
    }
    return Object.hasOwn(namedEntities, ref) ? namedEntities[ref]! : all;
  });
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
    this.headers = cells.map(normalizeInline);
  }

  /** Adds one row; returns false once the collector is full. */
  add(cells: readonly string[]): boolean {
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
