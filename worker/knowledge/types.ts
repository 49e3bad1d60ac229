/** The kinds of knowledge file Tala accepts (spec section 5), named by their extension. */
export const knowledgeKinds = ["pdf", "txt", "md", "csv", "json", "xml", "doc", "docx", "xls", "xlsx"] as const;
export type KnowledgeKind = (typeof knowledgeKinds)[number];

/** Kinds whose bytes are text (UTF-8, or UTF-16 with a byte-order mark). */
export const textKinds: ReadonlySet<KnowledgeKind> = new Set(["txt", "md", "csv", "json", "xml"]);

/**
 * One piece of extracted text, as the chunker consumes it:
 * - `heading` opens a section (level 1 is outermost); following blocks belong to it;
 * - `paragraph` is running text, split by the chunker at sentence ends when it must;
 * - `row` is a record (a table or sheet row, a JSON object, an XML element's fields) that the
 *   chunker keeps whole unless it alone exceeds the chunk budget.
 */
export type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "row"; text: string };

/** What an extractor returns for one file. */
export interface ExtractedDocument {
  blocks: Block[];
  /** True when a limit (characters, rows, cells, pages) cut the text short. */
  truncated: boolean;
  /** Pages of a PDF, sheets of a workbook; absent for other kinds. */
  pageCount?: number;
  sheetCount?: number;
}
