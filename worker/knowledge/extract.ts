import { knowledgeLimits, knowledgeMessages } from "../../contract";
import { KnowledgeError } from "./errors";
import { BlockCollector } from "./extract/collector";
import { extractCsv } from "./extract/csv";
import { extractDoc } from "./extract/doc";
import { ExtractGuard } from "./extract/guard";
import { extractJson } from "./extract/json";
import { extractMarkdown, extractPlainText } from "./extract/text";
import { extractXml } from "./extract/xml";
import { decodeText, type SniffedFile } from "./sniff";
import type { ExtractedDocument } from "./types";
import { readZipDirectory, type ZipEntry } from "./zip";

/**
 * Extracts the text of a sniffed knowledge file as blocks (headings, paragraphs, rows) for the
 * chunker. Every failure is a `KnowledgeError` with a reason and a message for the owner, so one
 * bad file fails alone; an unexpected library error counts as a damaged file (its cause is kept
 * for logs). Runs in workerd and in Node alike.
 *
 * Hostile input is bounded (see `ExtractGuard` and README "Guarantees"): every reader is linear
 * in its input, with caps on line length, cells per row, nesting depth, elements, blocks and
 * inflated bytes, and a wall-clock deadline checked inside its loops. The knowledge upload, the
 * queue and chat attachments (users and guests) all come through here.
 *
 * The readers built on large libraries (PDF.js, mammoth, SheetJS: over half of the Worker's code)
 * are imported when a file of their kind is first read, so an isolate that never reads one (a
 * visitor's turn, a test that uploads nothing) never evaluates them.
 */
export async function extractFile(file: Pick<SniffedFile, "kind" | "name" | "text" | "zipEntries">, bytes: Uint8Array): Promise<ExtractedDocument> {
  const { kind, name } = file;
  const out = new BlockCollector(undefined, new ExtractGuard(name, undefined, undefined, bytes.length));
  const text = () => file.text ?? decodeText(bytes, name);
  try {
    switch (kind) {
      case "txt":
        return extractPlainText(text(), out);
      case "md":
        return extractMarkdown(text(), out);
      case "csv":
        return extractCsv(text(), out);
      case "json":
        return extractJson(text(), name, out);
      case "xml":
        return extractXml(text(), out);
      case "pdf":
        return await (await import("./extract/pdf")).extractPdf(bytes, name, out);
      case "docx":
      case "xlsx":
        return await (await import("./extract/office")).extractOffice(kind, bytes, zipEntries(file, bytes, name), name, out);
      case "xls":
        if (bytes.length > knowledgeLimits.maxXlsBytes) throw new KnowledgeError("too_complex", knowledgeMessages.tooComplex(name));
        return (await import("./extract/spreadsheet")).extractSpreadsheet(bytes, name, out);
      case "doc":
        return extractDoc(bytes, name, out);
    }
  } catch (error) {
    if (error instanceof KnowledgeError) throw error;
    const capped = out.guard.fromRangeError(error);
    if (capped) throw capped;
    throw new KnowledgeError("damaged", knowledgeMessages.damaged(name), { cause: error });
  }
}

function zipEntries(file: Pick<SniffedFile, "zipEntries">, bytes: Uint8Array, name: string): ZipEntry[] {
  const entries = file.zipEntries ?? readZipDirectory(bytes);
  if (!entries) throw new KnowledgeError("damaged", knowledgeMessages.damaged(name));
  return entries;
}
