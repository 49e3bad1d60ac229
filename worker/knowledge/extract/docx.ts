import { Buffer } from "node:buffer";
import mammoth from "mammoth";
import { knowledgeMessages } from "../../../contract";
import { KnowledgeError } from "../errors";
import type { ExtractedDocument } from "../types";
import { BlockCollector } from "./collector";
import { htmlToBlocks } from "./html-blocks";

/** mammoth otherwise inlines every image as a base64 data URI: skip them, they carry no text. */
const noImages = mammoth.images.imgElement(() => Promise.resolve({ src: "" }));

/**
 * Word (.docx) via mammoth's HTML conversion, which keeps headings (Word's Heading 1–6 styles),
 * paragraphs, lists and tables; the HTML is then read into blocks. Both `arrayBuffer` and
 * `buffer` are passed: mammoth's browser build (what a Worker bundle may resolve) reads the
 * first, its Node build the second.
 */
export async function extractDocx(bytes: Uint8Array, name: string, out = new BlockCollector()): Promise<ExtractedDocument> {
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let html: string;
  try {
    const input = { arrayBuffer, buffer: Buffer.from(arrayBuffer) };
    const result = await mammoth.convertToHtml(input, { convertImage: noImages, ignoreEmptyParagraphs: true });
    html = result.value;
  } catch (error) {
    const capped = out.guard.fromRangeError(error);
    if (capped) throw capped;
    throw new KnowledgeError("damaged", knowledgeMessages.damaged(name), { cause: error });
  }
  htmlToBlocks(html, out);
  return out.finish();
}
