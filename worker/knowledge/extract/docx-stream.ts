import { knowledgeLimits, knowledgeMessages } from "../../../contract";
import { KnowledgeError } from "../errors";
import type { ExtractedDocument } from "../types";
import { readZipText, streamZipText, type ZipEntry } from "../zip";
import { BlockCollector, TableWriter, decodeEntities } from "./collector";
import { XmlStream, attribute } from "./xml-stream";

/**
 * Word (.docx) read as a stream, for documents too large for mammoth inside a Worker (mammoth
 * holds the whole document.xml and a tree of it: ~13× its size). word/document.xml is inflated
 * and scanned piece by piece; only text runs (w:t, w:tab, w:br) are kept, paragraphs whose style
 * is a heading (by name "heading N" or "Title" in styles.xml) become headings, and tables become
 * rows. Deleted text (w:delText), field codes (w:instrText) and the fallback copy of alternate
 * content are skipped.
 */
export async function extractDocxStreaming(bytes: Uint8Array, entries: ZipEntry[], name: string, out = new BlockCollector()): Promise<ExtractedDocument> {
  const main = entries.find((e) => e.name === "word/document.xml") ?? entries.find((e) => /^word\/document\d*\.xml$/.test(e.name));
  if (!main) throw new KnowledgeError("damaged", knowledgeMessages.damaged(name));
  const guard = out.guard;
  const stylesEntry = entries.find((e) => e.name === "word/styles.xml");
  const headingStyles = stylesEntry
    ? headingLevels(await readZipText(bytes, stylesEntry, guard, knowledgeLimits.maxMammothXmlBytes, () => guard.lineTooLong()))
    : new Map<string, number>();
  /** One paragraph or table cell is text held until its end tag: capped like a line. */
  const maxRun = knowledgeLimits.maxLineChars;

  let paragraph = "";
  /** Paragraphs nest inside text boxes: only the outermost one is emitted. */
  let paragraphDepth = 0;
  let style: string | undefined;
  let inText = false;
  let fallback = 0;
  let tableDepth = 0;
  let table: TableWriter | null = null;
  let row: string[] | null = null;
  let cell: string | null = null;
  const defaultLevel = (id: string) => /^heading\s*([1-6])$/i.exec(id)?.[1];

  const scanner = new XmlStream({
    open(tag, attributes, selfClosing) {
      if (fallback) {
        if (tag === "mc:Fallback" && !selfClosing) fallback++;
        return;
      }
      switch (tag) {
        case "mc:Fallback":
          if (!selfClosing) fallback = 1;
          return;
        case "w:p":
          if (selfClosing) return;
          if (paragraphDepth++ === 0) {
            paragraph = "";
            style = undefined;
          }
          return;
        case "w:pStyle":
          style = attribute(attributes, "w:val");
          return;
        case "w:t":
          inText = !selfClosing;
          return;
        case "w:tab":
          paragraph += "\t";
          if (paragraph.length > maxRun) throw guard.lineTooLong();
          return;
        case "w:br":
        case "w:cr":
          paragraph += "\n";
          if (paragraph.length > maxRun) throw guard.lineTooLong();
          return;
        case "w:tbl":
          if (tableDepth++ === 0) table = new TableWriter(out);
          return;
        case "w:tr":
          if (tableDepth === 1) row = [];
          return;
        case "w:tc":
          if (tableDepth === 1) cell = "";
      }
    },
    close(tag) {
      if (fallback) {
        if (tag === "mc:Fallback") fallback--;
        return;
      }
      switch (tag) {
        case "w:t":
          inText = false;
          return;
        case "w:p": {
          if (paragraphDepth === 0) return; // a self-closed, empty paragraph
          if (--paragraphDepth > 0) {
            paragraph += " ";
            return;
          }
          const text = decodeEntities(paragraph);
          paragraph = "";
          if (cell !== null) {
            cell += (cell ? " " : "") + text;
            if (cell.length > maxRun) throw guard.lineTooLong();
          } else {
            const level = style ? (headingStyles.get(style) ?? Number(defaultLevel(style) ?? 0)) : 0;
            if (level) out.heading(text, level);
            else out.paragraph(text);
          }
          return;
        }
        case "w:tc":
          if (tableDepth === 1 && cell !== null) {
            if (row && row.length >= knowledgeLimits.maxCellsPerRow) throw guard.tooManyCells();
            row?.push(cell);
            cell = null;
          }
          return;
        case "w:tr":
          if (tableDepth === 1 && row) {
            table?.add(row);
            row = null;
          }
          return;
        case "w:tbl":
          if (--tableDepth === 0) {
            table?.end();
            table = null;
          }
      }
    },
    text(raw) {
      if (!inText || fallback) return;
      paragraph += raw;
      if (paragraph.length > maxRun) throw guard.lineTooLong();
    },
  }, () => guard.lineTooLong());
  await streamZipText(bytes, main, guard, (text) => {
    guard.checkTime();
    scanner.push(text);
    return !out.full;
  });
  return out.finish();
}

/**
 * Style id → heading level, from styles.xml: styles named "heading N" (Word's built-ins) or "Title".
 * Read with indexOf, not a lazy regex: an unclosed `<w:style` would make every later one rescan
 * to the end of the part.
 */
export function headingLevels(stylesXml: string): Map<string, number> {
  const levels = new Map<string, number>();
  /** The next `<w:style` tag (not `<w:styles`) from `from`. */
  const next = (from: number) => {
    for (let at = stylesXml.indexOf("<w:style", from); at >= 0; at = stylesXml.indexOf("<w:style", at + 8)) {
      if (/[\s/>]/.test(stylesXml[at + 8] ?? "")) return at;
    }
    return -1;
  };
  for (let at = next(0); at >= 0; ) {
    const end = stylesXml.indexOf("</w:style>", at);
    if (end < 0) break;
    const style = stylesXml.slice(at, end);
    at = next(end);
    const open = /^<w:style\b([^<>]*)>/.exec(style);
    if (!open) continue;
    const id = attribute(open[1]!, "w:styleId");
    const styleName = /<w:name\b([^<>]*)\/?>/.exec(style)?.[1];
    const label = styleName ? attribute(styleName, "w:val") : undefined;
    if (!id || !label) continue;
    const level = /^heading\s*([1-6])$/i.exec(label.trim())?.[1];
    if (level) levels.set(id, Number(level));
    else if (/^title$/i.test(label.trim())) levels.set(id, 1);
  }
  return levels;
}
