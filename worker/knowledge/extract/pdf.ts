import { getDocumentProxy } from "unpdf";
import { knowledgeLimits, knowledgeMessages } from "../../../contract";
import { KnowledgeError } from "../errors";
import type { ExtractedDocument } from "../types";
import { BlockCollector, beforeNonSpace, bySlices } from "./collector";

/** Pages read between two PDF.js cache cleanups: keeps memory flat on long documents. */
const PAGES_PER_CLEANUP = 200;

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** Joins a page's lines into running text, mending words hyphenated across a line break. */
export function pageText(items: readonly { str?: string; hasEOL?: boolean }[]): string {
  let text = "";
  for (const item of items) {
    if (item.str === undefined) continue;
    text += item.str;
    if (item.hasEOL) text += "\n";
  }
  return bySlices(text, mendLines, insideWord).trim();
}

const mendLines = (text: string) =>
  text
    .replace(/(\p{L})-\n(\p{Ll})/gu, "$1$2")
    .replace(/[^\S\n]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{2,}/g, "\n\n");
/** Between two non-space characters, neither a hyphen: no whitespace run or "-\n" is cut. */
const insideWord = (text: string, at: number) =>
  text[at] !== "-" && text[at - 1] !== "-" && beforeNonSpace(text, at) && beforeNonSpace(text, at - 1);

/**
 * PDF via unpdf (PDF.js built for serverless runtimes), one page at a time so only one page's
 * text content is alive at once. A multi-page document gets a "Page N" heading per page, so a
 * chunk's heading says where its passage is. A password-protected file fails with its own reason;
 * a file whose pages carry no text (a scan) fails as having no extractable text.
 *
 * PDF.js may take ownership of `bytes` (it can detach the buffer): pass a copy if you need them after.
 */
export async function extractPdf(bytes: Uint8Array, name: string, out = new BlockCollector()): Promise<ExtractedDocument> {
  let pdf: PdfDocument;
  try {
    pdf = await getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false, stopAtErrors: false });
  } catch (error) {
    throw pdfError(error, name);
  }
  try {
    const pages = Math.min(pdf.numPages, knowledgeLimits.maxPdfPages);
    if (pdf.numPages > pages) out.cut();
    let anyText = false;
    for (let n = 1; n <= pages && !out.full; n++) {
      // The page count is what the file claims (a billion, say): pages are read one by one, at
      // most maxPdfPages of them, each under the file's deadline.
      out.guard.checkTime();
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = pageText(content.items as { str?: string; hasEOL?: boolean }[]);
      page.cleanup();
      // PDF.js keeps every page it has loaded (and their parsed resources) until told otherwise.
      if (n % PAGES_PER_CLEANUP === 0) await pdf.cleanup(true);
      if (!text) continue;
      anyText = true;
      if (pdf.numPages > 1) out.heading(`Page ${n}`, 1);
      for (const paragraph of text.split("\n\n")) out.paragraph(paragraph.replace(/\n/g, " "));
    }
    if (!anyText) throw new KnowledgeError("no_text", knowledgeMessages.noExtractableText(name));
    return out.finish({ pageCount: pdf.numPages });
  } catch (error) {
    throw error instanceof KnowledgeError ? error : pdfError(error, name);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

function pdfError(error: unknown, name: string): KnowledgeError {
  const errorName = error instanceof Error ? error.name : "";
  if (errorName === "PasswordException") {
    return new KnowledgeError("password_protected", knowledgeMessages.passwordProtected(name), { cause: error });
  }
  return new KnowledgeError("damaged", knowledgeMessages.damaged(name), { cause: error });
}
