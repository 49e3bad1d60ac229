import { knowledgeLimits } from "../../../contract";
import { KnowledgeError } from "../errors";
import { BlockCollector, TableWriter, beforeNonSpace, bySlices } from "./collector";
import { decodeHtmlEntities } from "./html-entities";
import { walkHtml, type HtmlElement, type HtmlTreeHandler } from "./html-tree";

export interface HtmlBlockOptions {
  /** Prefix list items with "- " (as the Markdown reader writes them). */
  listMarkers?: boolean;
  /**
   * Over a cap (a block's text or a table row past `maxLineChars`, a row past `maxCellsPerRow`
   * cells) cut the text and set `cut` instead of failing the file (web pages: one long paragraph
   * must not lose the page).
   */
  cutOverLimits?: boolean;
}

const set = (names: string) => new Set(names.split(" "));
/** Elements that start and end a block of text. */
const blockElements = set(
  "address article aside blockquote body caption center dd details dialog dir div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li listing main menu nav ol option p pre search section summary ul",
);
/** Elements whose content is never text of the page, whatever the reader. */
const nonText = set("head script style template title textarea select datalist svg canvas iframe object noscript");
const cellElements = set("td th");

/**
 * Reads an HTML tree (`walkHtml`) into blocks: h1–h6 as headings with their level, paragraphs and
 * other block elements as paragraphs, list items (optionally "- item"), pre with its line breaks,
 * tables as rows through `TableWriter` ("Header: value; …", nested tables flattened into their
 * outer cell), dt/dd as "term: definition". Inline elements join their text; whitespace collapses
 * as a browser shows it. Text per block is capped at `maxLineChars`, cells per row at
 * `maxCellsPerRow` (fail or cut, see `cutOverLimits`); the collector caps the blocks.
 */
export class HtmlBlockReader implements HtmlTreeHandler {
  /** True when a cap cut some text (with `cutOverLimits`). */
  cut = false;
  private pieces: string[] = [];
  private chars = 0;
  private readonly headingLevels: number[] = [];
  private pre = 0;
  private skipped = 0;
  private marker = false;
  private term: string | null = null;
  private definition = 0;
  private tableDepth = 0;
  private table: TableWriter | null = null;
  private row: string[] | null = null;
  private rowChars = 0;
  private cell: string[] | null = null;
  /** The open cell is past `maxCellsPerRow`: its text is read and dropped. */
  private cellDropped = false;

  constructor(
    private readonly out: BlockCollector,
    private readonly options: HtmlBlockOptions = {},
  ) {}

  get stopped(): boolean {
    return this.out.full;
  }

  tick(): void {
    this.out.guard.tick();
  }

  /** A cap was hit: cut (web pages) or fail the file (`KnowledgeError` naming the cap). */
  private overLimit(error: () => KnowledgeError): void {
    if (!this.options.cutOverLimits) throw error();
    this.cut = true;
  }

  enter(element: HtmlElement): void {
    const { name } = element;
    if (this.skipped || nonText.has(name)) {
      this.skipped++;
      return;
    }
    if (name === "table") return this.openTable();
    if (this.tableDepth) return this.enterInTable(name);
    if (name === "br") return this.append("\n");
    if (!blockElements.has(name)) return;
    this.flush();
    if (name.length === 2 && name[0] === "h" && name[1]! >= "1" && name[1]! <= "6") this.headingLevels.push(Number(name[1]));
    else if (name === "pre" || name === "listing") this.pre++;
    else if (name === "li") this.marker = this.options.listMarkers === true;
    else if (name === "dd") this.definition++;
  }

  leave(element: HtmlElement): void {
    const { name } = element;
    if (this.skipped) {
      this.skipped--;
      return;
    }
    if (name === "table") return this.closeTable();
    if (this.tableDepth) return this.leaveInTable(name);
    if (!blockElements.has(name)) return;
    if (name === "dt") {
      // The term waits for its definition: "term: definition" reads as one statement.
      this.emitTerm();
      const term = this.take();
      if (/\S/.test(term)) this.term = term;
      return;
    }
    this.flush();
    if (name.length === 2 && name[0] === "h" && name[1]! >= "1" && name[1]! <= "6") this.headingLevels.pop();
    else if (name === "pre" || name === "listing") this.pre--;
    else if (name === "li") this.marker = false;
    else if (name === "dd") this.definition--;
    else if (name === "dl") this.emitTerm();
  }

  text(raw: string): void {
    if (this.skipped) return;
    const decoded = decodeHtmlEntities(raw);
    // Outside <pre>, a run of spaces, tabs and line breaks is one space, as a browser shows it.
    this.append(this.pre ? decoded : bySlices(decoded, (s) => s.replace(/[ \t\n\f\r]+/g, " "), beforeNonSpace));
  }

  rawText(name: string, raw: string): void {
    // CDATA of svg/math is text; the content of script, style, title… never is.
    if (name === "#cdata" && !this.skipped) this.append(raw);
  }

  /** Ends the reading: what is still gathered becomes blocks. */
  finish(): void {
    if (this.table) this.closeTable(true);
    this.flush();
    this.emitTerm();
  }

  private append(piece: string): void {
    if (!piece) return;
    const target = this.cell ?? this.pieces;
    const used = this.cell ? this.rowChars : this.chars;
    const room = knowledgeLimits.maxLineChars - used;
    if (room <= 0) return;
    if (piece.length > room) {
      this.overLimit(() => this.out.guard.lineTooLong());
      piece = piece.slice(0, room);
    }
    target.push(piece);
    if (this.cell) this.rowChars += piece.length;
    else this.chars += piece.length;
  }

  private take(): string {
    const text = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join("");
    this.pieces = [];
    this.chars = 0;
    return text;
  }

  private emitTerm(): void {
    if (this.term !== null) this.out.paragraph(this.term);
    this.term = null;
  }

  private flush(): void {
    let text = this.take();
    if (!/\S/.test(text)) return;
    const level = this.headingLevels[this.headingLevels.length - 1];
    if (level) {
      this.emitTerm();
      this.out.heading(text, level);
      return;
    }
    if (this.term !== null && this.definition) {
      text = `${this.term.trim()}: ${text.trimStart()}`;
      this.term = null;
    } else this.emitTerm();
    if (this.marker) {
      text = `- ${text.trimStart()}`;
      this.marker = false;
    }
    this.out.paragraph(text);
  }

  private openTable(): void {
    this.tableDepth++;
    if (this.tableDepth > 1) return this.append(" ");
    this.flush();
    this.table = new TableWriter(this.out);
  }

  private closeTable(all = false): void {
    this.tableDepth = all ? 0 : this.tableDepth - 1;
    if (this.tableDepth > 0) return this.append(" ");
    this.endCell();
    this.endRow();
    this.table?.end();
    this.table = null;
  }

  private enterInTable(name: string): void {
    if (this.tableDepth > 1 || (!cellElements.has(name) && name !== "tr")) {
      // Inside a cell a block boundary is a space; inside a nested table its cells are words.
      if (this.cell && (blockElements.has(name) || name === "br" || cellElements.has(name))) this.append(" ");
      return;
    }
    if (name === "tr") {
      this.endCell();
      this.endRow();
      this.row = [];
      this.rowChars = 0;
      return;
    }
    this.endCell();
    if (!this.row) {
      this.row = [];
      this.rowChars = 0;
    }
    this.cell = [];
    if (this.row.length >= knowledgeLimits.maxCellsPerRow) {
      this.overLimit(() => this.out.guard.tooManyCells());
      this.cellDropped = true;
    }
  }

  private leaveInTable(name: string): void {
    if (this.tableDepth > 1) return;
    if (cellElements.has(name)) this.endCell();
    else if (name === "tr") this.endRow();
    else if (name === "caption") this.flush();
  }

  private endCell(): void {
    if (this.cell && this.row && !this.cellDropped) this.row.push(this.cell.join(""));
    this.cell = null;
    this.cellDropped = false;
  }

  private endRow(): void {
    this.endCell();
    const row = this.row;
    this.row = null;
    this.rowChars = 0;
    if (!row || !this.table) return;
    try {
      this.table.add(row);
    } catch (error) {
      // A row whose "Header: value" form outgrows maxLineChars (its cells were capped as read).
      if (!(error instanceof KnowledgeError) || !this.options.cutOverLimits) throw error;
      this.cut = true;
    }
  }
}

/**
 * Reads the HTML that mammoth writes for a docx (h1–h6, p, ul/ol/li, table/tr/th/td, inline tags)
 * into blocks, with the same linear reader as web pages. A paragraph or row past `maxLineChars`
 * fails the file, as the streaming docx reader does.
 */
export function htmlToBlocks(html: string, out: BlockCollector): void {
  const reader = new HtmlBlockReader(out);
  walkHtml(html, reader);
  reader.finish();
}
