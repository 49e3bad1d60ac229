import { knowledgeLimits, knowledgeMessages } from "../../contract";
import { KnowledgeError } from "./errors";
import { BlockCollector } from "./extract/collector";
import { extractCsv } from "./extract/csv";
import { extractDoc } from "./extract/doc";
import { extractDocx } from "./extract/docx";
import { extractDocxStreaming } from "./extract/docx-stream";
import { extractJson } from "./extract/json";
import { extractPdf } from "./extract/pdf";
import { extractSpreadsheet } from "./extract/spreadsheet";
import { extractMarkdown, extractPlainText } from "./extract/text";
import { extractXml } from "./extract/xml";
import { extractXlsxStreaming } from "./extract/xlsx-stream";
import { decodeText, type SniffedFile } from "./sniff";
import type { ExtractedDocument } from "./types";
import { readZipDirectory, type ZipEntry } from "./zip";

/**
 * Extracts the text of a sniffed knowledge file as blocks (headings, paragraphs, rows) for the
 * chunker. Every failure is a `KnowledgeError` with a reason and a message for the owner, so one
 * bad file fails alone; an unexpected library error counts as a damaged file (its cause is kept
 * for logs). Runs in workerd and in Node alike.
 */
export async function extractFile(file: Pick<SniffedFile, "kind" | "name" | "text" | "zipEntries">, bytes: Uint8Array): Promise<ExtractedDocument> {
  const { kind, name } = file;
  const out = new BlockCollector();
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
        return await extractPdf(bytes, name, out);
      case "docx": {
        const entries = zipEntries(file, bytes, name);
        const xml = inflatedSize(entries, /^word\//, name);
        return xml <= knowledgeLimits.maxMammothXmlBytes
          ? await extractDocx(bytes, name, out)
          : await extractDocxStreaming(bytes, entries, name, out);
      }
      case "xlsx": {
        const entries = zipEntries(file, bytes, name);
        const xml = inflatedSize(entries, /^xl\/(worksheets\/|sharedStrings)/, name);
        return xml <= knowledgeLimits.maxSheetJsXmlBytes
          ? extractSpreadsheet(bytes, name, out)
          : await extractXlsxStreaming(bytes, entries, name, out);
      }
      case "xls":
        if (bytes.length > knowledgeLimits.maxXlsBytes) throw new KnowledgeError("too_complex", knowledgeMessages.tooComplex(name));
        return extractSpreadsheet(bytes, name, out);
      case "doc":
        return extractDoc(bytes, name, out);
    }
  } catch (error) {
    if (error instanceof KnowledgeError) throw error;
    throw new KnowledgeError("damaged", knowledgeMessages.damaged(name), { cause: error });
  }
}

function zipEntries(file: Pick<SniffedFile, "zipEntries">, bytes: Uint8Array, name: string): ZipEntry[] {
  const entries = file.zipEntries ?? readZipDirectory(bytes);
  if (!entries) throw new KnowledgeError("damaged", knowledgeMessages.damaged(name));
  return entries;
}

/**
 * The inflated size of a docx/xlsx's XML parts, as its zip directory declares it. Past
 * `maxOfficeXmlBytes` the file is refused before anything is inflated (a zip bomb, or more than
 * a Worker should chew through).
 */
function inflatedSize(entries: ZipEntry[], parts: RegExp, name: string): number {
  let total = 0;
  for (const entry of entries) if (parts.test(entry.name)) total += entry.uncompressedSize;
  if (total > knowledgeLimits.maxOfficeXmlBytes) throw new KnowledgeError("too_complex", knowledgeMessages.tooComplex(name));
  return total;
}
