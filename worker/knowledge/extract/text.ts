import type { ExtractedDocument } from "../types";
import { BlockCollector, TableWriter } from "./collector";

/** Plain text: paragraphs are separated by blank lines; there are no headings. */
export function extractPlainText(text: string, out = new BlockCollector()): ExtractedDocument {
  for (const paragraph of text.split(/\r?\n[^\S\n]*\r?\n/)) {
    if (!out.paragraph(paragraph)) break;
  }
  return out.finish();
}

const atxHeading = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const fence = /^ {0,3}(`{3,}|~{3,})/;
const setextUnderline = /^ {0,3}(=+|-+)[ \t]*$/;
const tableDelimiter = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const listItem = /^[ \t]*([-*+]|\d{1,9}[.)])[ \t]+/;

/** Cells of a Markdown table line (`| a | b |`), escaped pipes kept. */
function tableCells(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, "").replace(/(?<!\\)\|$/, "");
  return trimmed.split(/(?<!\\)\|/).map((c) => c.replace(/\\\|/g, "|").trim());
}

/** Inline Markdown reduced to its text: images to their alt text, links to their label, HTML comments dropped. */
function inlineText(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1");
}

/**
 * Markdown: ATX and setext headings, paragraphs, list items (one block each), fenced code (one
 * paragraph), and pipe tables (rows "Header: value"). Front matter and HTML are kept as text.
 */
export function extractMarkdown(text: string, out = new BlockCollector()): ExtractedDocument {
  const lines = text.split(/\r?\n/);
  let paragraph: string[] = [];
  const flush = () => {
    const ok = paragraph.length === 0 || out.paragraph(inlineText(paragraph.join("\n")));
    paragraph = [];
    return ok;
  };
  for (let i = 0; i < lines.length && !out.full; i++) {
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
    const heading = atxHeading.exec(line);
    if (heading) {
      flush();
      out.heading(inlineText(heading[2] ?? ""), heading[1]!.length);
      continue;
    }
    const underline = setextUnderline.exec(line);
    if (underline && paragraph.length === 1) {
      const title = paragraph[0]!;
      paragraph = [];
      out.heading(inlineText(title), underline[1]![0] === "=" ? 1 : 2);
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && lines[i + 1]!.includes("|") && tableDelimiter.test(lines[i + 1]!)) {
      flush();
      const table = new TableWriter(out);
      table.header(tableCells(line).map(inlineText));
      for (i += 2; i < lines.length && lines[i]!.includes("|") && lines[i]!.trim() !== ""; i++) {
        if (!table.add(tableCells(lines[i]!).map(inlineText))) break;
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
