import { knowledgeLimits } from "../../../contract";
import type { ExtractedDocument } from "../types";
import { BlockCollector, TableWriter, bySlices } from "./collector";

/** Plain text: paragraphs are separated by blank lines; there are no headings. */
export function extractPlainText(text: string, out = new BlockCollector()): ExtractedDocument {
  // No line cap here: plain text runs no per-line pattern (paragraph split, whitespace and sentence
  // passes are linear), and a 10 MB one-line paragraph is a read file of the hostile corpus.
  for (const paragraph of text.split(/\r?\n[^\S\n]*\r?\n/)) {
    if (!out.paragraph(paragraph)) break;
  }
  return out.finish();
}

/**
 * Fails the file when a line is longer than `maxLineChars`, as every other reader does: one linear
 * pass with indexOf, before any per-line work.
 */
function checkLineLengths(text: string, out: BlockCollector): void {
  if (text.length <= knowledgeLimits.maxLineChars) return;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf("\n", start);
    const stop = end < 0 ? text.length : end;
    if (stop - start > knowledgeLimits.maxLineChars) throw out.guard.lineTooLong();
    start = stop + 1;
  }
}

/**
 * The opening of an ATX heading only; its text and closing "#"s are trimmed by hand
 * (`headingText`). The former `(.*?)(?:[ \t]+#+)?[ \t]*$` retried the lazy group at every
 * character against a run of blanks: 60 KB of them took 6 s.
 */
const atxOpening = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
const isBlankCode = (code: number) => code === 0x20 || code === 0x09;

/** The text of an ATX heading after its opening: trailing blanks and a closing run of "#" removed. */
function headingText(line: string, start: number): string {
  let end = line.length;
  while (end > start && isBlankCode(line.charCodeAt(end - 1))) end--;
  let hashes = end;
  while (hashes > start && line.charCodeAt(hashes - 1) === 0x23) hashes--;
  if (hashes < end && (hashes === start || isBlankCode(line.charCodeAt(hashes - 1)))) {
    end = hashes;
    while (end > start && isBlankCode(line.charCodeAt(end - 1))) end--;
  }
  return line.slice(start, end);
}
const fence = /^ {0,3}(`{3,}|~{3,})/;
const setextUnderline = /^ {0,3}(=+|-+)[ \t]*$/;
/** Tested on the line with its blanks removed: with them, the nested `[ \t]*` runs backtrack quadratically. */
const tableDelimiterCompact = /^\|?:?-+:?(?:\|:?-+:?)*\|?$/;
const isTableDelimiter = (line: string) => tableDelimiterCompact.test(line.replace(/[ \t]+/g, ""));
const listItem = /^[ \t]*([-*+]|\d{1,9}[.)])[ \t]+/;

/** Cells of a Markdown table line (`| a | b |`), escaped pipes kept; more than `maxCellsPerRow` fails the file. */
function tableCells(line: string, out: BlockCollector): string[] {
  let pipes = 0;
  for (let at = line.indexOf("|"); at >= 0; at = line.indexOf("|", at + 1)) {
    if (++pipes > knowledgeLimits.maxCellsPerRow + 1) throw out.guard.tooManyCells();
  }
  const trimmed = line.trim().replace(/^\|/, "").replace(/(?<!\\)\|$/, "");
  return trimmed.split(/(?<!\\)\|/).map((c) => c.replace(/\\\|/g, "|").trim());
}

/**
 * Inline Markdown reduced to its text: images to their alt text, links to their label, HTML
 * comments dropped. Linear whatever the input: comments are cut with indexOf, and a link's label
 * and target cannot contain a bracket, so a run of "[" or "<!--" never makes a regex rescan the rest.
 */
function inlineText(text: string): string {
  if (text.includes("<!--")) {
    let kept = "";
    let i = 0;
    for (;;) {
      const start = text.indexOf("<!--", i);
      const end = start < 0 ? -1 : text.indexOf("-->", start + 4);
      if (end < 0) {
        kept += text.slice(i);
        break;
      }
      kept += text.slice(i, start);
      i = end + 3;
    }
    text = kept;
  }
  if (!text.includes("](")) return text;
  return bySlices(text, links, beforeLink);
}

const links = (text: string) => text.replace(/!\[([^\][\n]*)\]\([^)[\]\n]*\)/g, "$1").replace(/\[([^\][\n]+)\]\([^)[\]\n]*\)/g, "$1");
/** A link or image starts at "[" or "!["; neither contains another bracket, so no match straddles such a cut. */
const beforeLink = (text: string, at: number) => (text[at] === "[" && text[at - 1] !== "!") || text[at] === "!";

/**
 * Markdown: ATX and setext headings, paragraphs, list items (one block each), fenced code (one
 * paragraph), and pipe tables (rows "Header: value"). Front matter and HTML are kept as text.
 */
export function extractMarkdown(text: string, out = new BlockCollector()): ExtractedDocument {
  checkLineLengths(text, out);
  const lines = text.split(/\r?\n/);
  let paragraph: string[] = [];
  const flush = () => {
    const ok = paragraph.length === 0 || out.paragraph(inlineText(paragraph.join("\n")));
    paragraph = [];
    return ok;
  };
  for (let i = 0; i < lines.length && !out.full; i++) {
    out.guard.tick();
    const line = lines[i]!;
    const fenced = fence.exec(line);
    if (fenced) {
      flush();
      const marker = fenced[1]!;
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(marker); i++) code.push(lines[i]!);
      out.paragraph(code.join("\n"));
      continue;
    }
    const heading = atxOpening.exec(line);
    if (heading) {
      flush();
      out.heading(inlineText(headingText(line, heading[0].length)), heading[1]!.length);
      continue;
    }
    const underline = setextUnderline.exec(line);
    if (underline && paragraph.length === 1) {
      const title = paragraph[0]!;
      paragraph = [];
      out.heading(inlineText(title), underline[1]![0] === "=" ? 1 : 2);
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && lines[i + 1]!.includes("|") && isTableDelimiter(lines[i + 1]!)) {
      flush();
      const table = new TableWriter(out);
      table.header(tableCells(line, out).map(inlineText));
      for (i += 2; i < lines.length && lines[i]!.includes("|") && lines[i]!.trim() !== ""; i++) {
        if (!table.add(tableCells(lines[i]!, out).map(inlineText))) break;
      }
      table.end();
      i--;
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    if (listItem.test(line)) flush();
    paragraph.push(line.replace(/^ {0,3}> ?/, ""));
  }
  flush();
  return out.finish();
}
