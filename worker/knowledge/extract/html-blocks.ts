import { BlockCollector, TableWriter, decodeEntities } from "./collector";

/**
 * Reads the HTML that mammoth writes (h1–h6, p, ul/ol/li, table/tr/th/td, inline tags) into
 * blocks. Not a general HTML parser: mammoth's output is well-formed and escaped, and anything
 * unexpected is treated as inline text. Nested tables are flattened into their outer cell.
 */
export function htmlToBlocks(html: string, out: BlockCollector): void {
  let text = "";
  let heading = 0;
  let tableDepth = 0;
  let table: TableWriter | null = null;
  let row: string[] | null = null;
  let cell: string | null = null;

  const flushText = () => {
    const value = text;
    text = "";
    if (heading) out.heading(value, heading);
    else out.paragraph(value);
  };
  const re = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>|([^<]+)/g;
  for (let m = re.exec(html); m && !out.full; m = re.exec(html)) {
    if (m[3] !== undefined) {
      const piece = decodeEntities(m[3]);
      if (cell !== null) cell += piece;
      else text += piece;
      continue;
    }
    const closing = m[1] === "/";
    const tag = m[2]!.toLowerCase();
    if (tag === "table") {
      tableDepth += closing ? -1 : 1;
      if (tableDepth === 1 && !closing) {
        flushText();
        table = new TableWriter(out);
      } else if (tableDepth === 0 && closing && table) {
        table.end();
        table = null;
      }
      continue;
    }
    if (tableDepth > 1) {
      // Inside a nested table: its cells are words of the outer cell.
      if (cell !== null && (tag === "td" || tag === "th" || tag === "p" || tag === "br")) cell += " ";
      continue;
    }
    if (tableDepth === 1) {
      if (tag === "tr") {
        if (!closing) row = [];
        else if (row && table) {
          table.add(row);
          row = null;
        }
      } else if (tag === "td" || tag === "th") {
        if (!closing) cell = "";
        else if (cell !== null) {
          row?.push(cell);
          cell = null;
        }
      } else if (cell !== null && (tag === "p" || tag === "br" || tag === "li")) cell += " ";
      continue;
    }
    if (/^h[1-6]$/.test(tag)) {
      flushText();
      heading = closing ? 0 : Number(tag[1]);
    } else if (tag === "p" || tag === "li" || tag === "ul" || tag === "ol") {
      flushText();
    } else if (tag === "br") {
      text += "\n";
    }
  }
  flushText();
}
