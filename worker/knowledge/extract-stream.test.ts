import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import { knowledgeLimits } from "../../contract";
import { makeDocx, makeWorkbook } from "../../tests/fixtures/knowledge-files";
import { KnowledgeError } from "./errors";
import { extractFile } from "./extract";
import { extractDocx } from "./extract/docx";
import { extractDocxStreaming, headingLevels } from "./extract/docx-stream";
import { extractSpreadsheet } from "./extract/spreadsheet";
import { XmlStream } from "./extract/xml-stream";
import { columnIndex, extractXlsxStreaming } from "./extract/xlsx-stream";
import { sniffFile } from "./sniff";
import { readZipDirectory } from "./zip";

const docxParagraphs = [
  { text: "Returns", heading: 1 },
  { text: "You can return an item within 30 days & get a refund." },
  { text: "Exceptions", heading: 2 },
  { text: "Sale items are final." },
];
const docxTable = [
  ["Item", "Days"],
  ["Shoes", "30"],
];

describe("streaming docx reader", () => {
  it("reads what mammoth reads: headings, paragraphs, table rows", async () => {
    const bytes = await makeDocx(docxParagraphs, docxTable);
    const streamed = await extractDocxStreaming(bytes, readZipDirectory(bytes)!, "a.docx");
    const mammoth = await extractDocx(bytes, "a.docx");
    expect(streamed.blocks).toEqual(mammoth.blocks);
  });

  it("maps heading styles by name", () => {
    const styles = `<w:styles><w:style w:type="paragraph" w:styleId="Titre1"><w:name w:val="heading 1"/></w:style>
      <w:style w:type="paragraph" w:styleId="T"><w:name w:val="Title"/></w:style>
      <w:style w:type="paragraph" w:styleId="Normal"><w:name w:val="Normal"/></w:style></w:styles>`;
    expect([...headingLevels(styles)]).toEqual([
      ["Titre1", 1],
      ["T", 1],
    ]);
  });

  it("takes over from mammoth for a document.xml past the limit", async () => {
    const paragraph = "This long handbook paragraph explains the returns process in detail for every customer. ".repeat(4);
    const count = Math.ceil((knowledgeLimits.maxMammothXmlBytes * 1.1) / (paragraph.length + 80));
    const paragraphs = Array.from({ length: count }, (_, i) => (i % 500 === 0 ? { text: `Chapter ${i / 500}`, heading: 1 } : { text: paragraph }));
    const bytes = await makeDocx(paragraphs);
    const entry = readZipDirectory(bytes)!.find((e) => e.name === "word/document.xml")!;
    expect(entry.uncompressedSize).toBeGreaterThan(knowledgeLimits.maxMammothXmlBytes);
    const document = await extractFile(sniffFile({ name: "big.docx", bytes }), bytes);
    expect(document.blocks.filter((b) => b.kind === "heading")).toHaveLength(Math.ceil(count / 500));
    expect(document.blocks.filter((b) => b.kind === "paragraph").length).toBe(count - Math.ceil(count / 500));
  }, 30_000);

  it("never trusts the sizes a zip declares: a small part claiming 500 MB is read for what it is", async () => {
    // Sizes are counted while inflating (see hostile-files.test.ts for
    // real bombs), so a claimed size neither refuses an honest file nor admits a bomb.
    const bytes = await makeDocx(docxParagraphs);
    const entries = readZipDirectory(bytes)!;
    // Patch the central directory: word/document.xml now claims 500 MB.
    const name = new TextEncoder().encode("word/document.xml");
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let p = bytes.length - 22; p > 0; p--) {
      if (dv.getUint32(p, true) === 0x02014b50 && name.every((b, i) => bytes[p + 46 + i] === b)) dv.setUint32(p + 24, 500 * 1024 * 1024, true);
    }
    expect(readZipDirectory(bytes)!.find((e) => e.name === "word/document.xml")!.uncompressedSize).toBe(500 * 1024 * 1024);
    expect(entries.length).toBeGreaterThan(0);
    const document = await extractFile(sniffFile({ name: "claims.docx", bytes }), bytes);
    expect(document.blocks.length).toBeGreaterThan(0);
  });
});

describe("streaming xlsx reader", () => {
  it("reads what SheetJS reads (values unformatted)", async () => {
    const bytes = makeWorkbook({
      Prices: [
        ["Product", "Price", "Notes"],
        ["Basic & co", 9, ""],
        ["Pro plan", 29, "Most popular"],
      ],
      Flags: [
        ["Name", "Active"],
        ["x", true],
      ],
    });
    const streamed = await extractXlsxStreaming(bytes, readZipDirectory(bytes)!, "b.xlsx");
    const sheetjs = extractSpreadsheet(bytes, "b.xlsx");
    expect(streamed.blocks).toEqual(sheetjs.blocks);
    expect(streamed.sheetCount).toBe(2);
  });

  it("reads inline strings and sparse cells", async () => {
    const sheet = XLSX.utils.aoa_to_sheet([["A", "B", "C"]]);
    sheet["C2"] = { t: "s", v: "far" };
    sheet["A2"] = { t: "n", v: 1.5 };
    sheet["!ref"] = "A1:C2";
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(workbook, sheet, "S");
    const bytes = new Uint8Array(XLSX.write(workbook, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
    const streamed = await extractXlsxStreaming(bytes, readZipDirectory(bytes)!, "c.xlsx");
    expect(streamed.blocks).toEqual([
      { kind: "heading", level: 2, text: "S" },
      { kind: "row", text: "A: 1.5; C: far" },
    ]);
  });

  it("converts cell references to columns", () => {
    expect(["A1", "B7", "Z3", "AA10", "XFD1"].map(columnIndex)).toEqual([0, 1, 25, 26, 16_383]);
  });
});

describe("legacy .xls size guard", () => {
  it("refuses an .xls past maxXlsBytes before SheetJS parses it", async () => {
    const CFB = (XLSX as unknown as { CFB: { utils: { cfb_new(): unknown; cfb_add(c: unknown, p: string, d: Uint8Array): void }; write(c: unknown, o: object): ArrayLike<number> } }).CFB;
    const container = CFB.utils.cfb_new();
    CFB.utils.cfb_add(container, "/Workbook", new Uint8Array(knowledgeLimits.maxXlsBytes + 1024));
    const bytes = new Uint8Array(CFB.write(container, { type: "array" }));
    const error = await extractFile(sniffFile({ name: "huge.xls", bytes }), bytes).catch((e: unknown) => e);
    expect((error as KnowledgeError).reason).toBe("too_complex");
  });
});

describe("XmlStream", () => {
  it("gives the same events whatever the piece boundaries", () => {
    const xml = `<?xml version="1.0"?><a x="1"><!-- c > d --><b>te&amp;xt</b><c/><![CDATA[<z>]]></a>`;
    const run = (size: number) => {
      const events: string[] = [];
      const stream = new XmlStream({
        open: (name, attributes, selfClosing) => events.push(`open ${name}${attributes}${selfClosing ? "/" : ""}`),
        close: (name) => events.push(`close ${name}`),
        text: (raw) => {
          // Text may arrive in several pieces: merge adjacent ones.
          const last = events.length - 1;
          if (events[last]?.startsWith("text ")) events[last] += raw;
          else events.push(`text ${raw}`);
        },
      });
      for (let i = 0; i < xml.length; i += size) stream.push(xml.slice(i, i + size));
      return events;
    };
    const whole = run(xml.length);
    expect(whole).toEqual(['open a x="1"', "open b", "text te&amp;xt", "close b", "open c/", "close c", "close a"]);
    for (const size of [1, 2, 3, 5, 7, 11]) expect(run(size)).toEqual(whole);
  });
});
