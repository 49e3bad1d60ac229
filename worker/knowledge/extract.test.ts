import { describe, expect, it } from "vitest";
import { knowledgeMessages } from "../../contract";
import { makeCorruptDocx, makeDoc, makeDocx, makePdf, makeWorkbook, utf8 } from "../../tests/fixtures/knowledge-files";
import { KnowledgeError } from "./errors";
import { extractFile } from "./extract";
import { BlockCollector } from "./extract/collector";
import { detectDelimiter, extractCsv, parseCsv } from "./extract/csv";
import { stripFields } from "./extract/doc";
import { withPrototypeGuard } from "./extract/spreadsheet";
import { extractJson } from "./extract/json";
import { extractMarkdown, extractPlainText } from "./extract/text";
import { extractXml } from "./extract/xml";
import { sniffFile } from "./sniff";
import type { Block } from "./types";

const extract = (name: string, bytes: Uint8Array) => extractFile(sniffFile({ name, bytes }), bytes);
const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KnowledgeError);
  return error as KnowledgeError;
};
const texts = (blocks: Block[], kind?: Block["kind"]) => blocks.filter((b) => !kind || b.kind === kind).map((b) => b.text);

describe("pdf", () => {
  it("extracts each page's text under a Page N heading", async () => {
    const pdf = makePdf([["Refund policy", "Refunds are issued within 14 days."], ["Shipping takes 3 days."]]);
    const doc = await extract("policy.pdf", pdf);
    expect(doc.pageCount).toBe(2);
    expect(texts(doc.blocks, "heading")).toEqual(["Page 1", "Page 2"]);
    expect(texts(doc.blocks, "paragraph").join(" ")).toContain("Refunds are issued within 14 days.");
    expect(texts(doc.blocks, "paragraph").join(" ")).toContain("Shipping takes 3 days.");
  });

  it("fails a scanned (text-less) PDF with its own reason", async () => {
    const error = await failure(extract("scan.pdf", makePdf([[], []])));
    expect(error.reason).toBe("no_text");
    expect(error.message).toBe("scan.pdf has no extractable text (it may be a scanned image).");
  });

  it("fails a password-protected PDF", async () => {
    const error = await failure(extract("secret.pdf", makePdf([["Top secret"]], { encrypted: true })));
    expect(error.reason).toBe("password_protected");
    expect(error.message).toBe("secret.pdf is password-protected.");
  });

  it("fails a PDF whose body is garbage as damaged", async () => {
    const error = await failure(extract("broken.pdf", utf8("%PDF-1.4\nnothing else here")));
    expect(error.reason).toBe("damaged");
    expect(error.message).toBe(knowledgeMessages.damaged("broken.pdf"));
  });
});

describe("docx", () => {
  it("keeps headings, paragraphs and table rows", async () => {
    const docx = await makeDocx(
      [
        { text: "Returns", heading: 1 },
        { text: "You can return an item within 30 days." },
        { text: "Exceptions", heading: 2 },
        { text: "Sale items are final & cannot be returned." },
      ],
      [
        ["Item", "Days"],
        ["Shoes", "30"],
        ["Gift cards", "0"],
      ],
    );
    const doc = await extract("notes.docx", docx);
    expect(doc.blocks).toEqual([
      { kind: "heading", level: 1, text: "Returns" },
      { kind: "paragraph", text: "You can return an item within 30 days." },
      { kind: "heading", level: 2, text: "Exceptions" },
      { kind: "paragraph", text: "Sale items are final & cannot be returned." },
      { kind: "row", text: "Item: Shoes; Days: 30" },
      { kind: "row", text: "Item: Gift cards; Days: 0" },
    ]);
  });

  it("fails a corrupt docx with the damaged message", async () => {
    const error = await failure(extract("notes.docx", await makeCorruptDocx()));
    expect(error.reason).toBe("damaged");
    expect(error.message).toBe("notes.docx could not be read: the file is damaged.");
  });
});

describe("xlsx and xls", () => {
  const sheets = {
    Prices: [
      ["Product", "Price", "Notes"],
      ["Basic plan", 9, ""],
      ["Pro plan", 29, "Most popular"],
    ],
    "Opening hours": [
      ["Day", "Hours"],
      ["Monday", "9-17"],
    ],
  };

  for (const [name, bookType] of [
    ["book.xlsx", "xlsx"],
    ["book.xls", "biff8"],
  ] as const) {
    it(`writes each sheet as a heading and "Header: value" rows (${bookType})`, async () => {
      const doc = await extract(name, makeWorkbook(sheets, bookType));
      expect(doc.sheetCount).toBe(2);
      expect(doc.blocks).toEqual([
        { kind: "heading", level: 2, text: "Prices" },
        { kind: "row", text: "Product: Basic plan; Price: 9" },
        { kind: "row", text: "Product: Pro plan; Price: 29; Notes: Most popular" },
        { kind: "heading", level: 2, text: "Opening hours" },
        { kind: "row", text: "Day: Monday; Hours: 9-17" },
      ]);
    });
  }

  it("names columns when the first row is data", async () => {
    const doc = await extract("n.xlsx", makeWorkbook({ S: [[1, 2], [3, 4]] }));
    expect(texts(doc.blocks, "row")).toEqual(["Column 1: 1; Column 2: 2", "Column 1: 3; Column 2: 4"]);
  });

  it("fails a damaged workbook", async () => {
    const bytes = makeWorkbook(sheets);
    // Keep the directory readable but break the compressed sheet data.
    const broken = bytes.slice();
    for (let i = 200; i < Math.min(broken.length - 200, 1200); i++) broken[i] = 0x55;
    const error = await failure(extract("book.xlsx", broken));
    expect(error.reason).toBe("damaged");
  });

  it("undoes and refuses a prototype pollution during a read", () => {
    expect(() =>
      withPrototypeGuard(() => {
        (Object.prototype as Record<string, unknown>).polluted = "yes";
      }),
    ).toThrow(/prototype/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("doc (Word 97 binary)", () => {
  it("reads compressed and UTF-16 pieces, fields and tables", async () => {
    const doc = makeDoc([
      { text: "Welcome to the shop\u0092s help\r", compressed: true },
      { text: "Réponse en français : livraison gratuite.\rمرحبا بكم\r" },
      { text: "See \u0013 HYPERLINK \"x\" \u0014our site\u0015 now.\r", compressed: true },
      { text: "Plan\u0007Price\u0007\u0007Basic\u00079\u0007\u0007Pro\u0007\u0007\u0007", compressed: true },
      { text: "The end.\r", compressed: true },
    ]);
    const result = await extract("old.doc", doc);
    expect(result.blocks).toEqual([
      { kind: "paragraph", text: "Welcome to the shop\u2019s help" },
      { kind: "paragraph", text: "Réponse en français : livraison gratuite." },
      { kind: "paragraph", text: "مرحبا بكم" },
      { kind: "paragraph", text: "See our site now." },
      { kind: "row", text: "Plan: Basic; Price: 9" },
      { kind: "row", text: "Plan: Pro" },
      { kind: "paragraph", text: "The end." },
    ]);
  });

  it("reads a document large enough to live outside the mini stream", async () => {
    const paragraph = "This sentence repeats to make the WordDocument stream large. ";
    const result = await extract("big.doc", makeDoc([{ text: `${paragraph.repeat(200)}\r`, compressed: true }]));
    expect(result.blocks[0]!.text.length).toBeGreaterThan(10_000);
  });

  it("refuses encrypted and pre-97 documents with their own reasons", async () => {
    expect((await failure(extract("secret.doc", makeDoc([{ text: "x\r" }], { encrypted: true })))).message).toBe(
      "secret.doc is password-protected.",
    );
    const old = await failure(extract("old.doc", makeDoc([{ text: "x\r" }], { nFib: 0x0065 })));
    expect(old.reason).toBe("unsupported_version");
  });

  it("strips nested field codes but keeps results", () => {
    expect(stripFields("a\u0013 IF \u0013 REF x \u0014inner\u0015 \u0014outer\u0015b")).toBe("aouterb");
    expect(stripFields("no fields")).toBe("no fields");
  });
});

describe("text kinds", () => {
  it("txt: paragraphs split at blank lines", () => {
    expect(texts(extractPlainText("One.\nStill one.\n\n  Two.  \r\n\r\nThree.").blocks)).toEqual(["One.\nStill one.", "Two.", "Three."]);
  });

  it("md: headings, lists, code, tables and inline markup", () => {
    const md = [
      "# Guide",
      "Intro with a [link](https://x.test) and ![logo](l.png).",
      "",
      "Setext title",
      "------------",
      "- first item",
      "- second item",
      "",
      "```",
      "npm install",
      "# not a heading",
      "```",
      "| Plan | Price |",
      "|------|------:|",
      "| Basic | 9 |",
      "| Pro \\| Max | 29 |",
    ].join("\n");
    expect(extractMarkdown(md).blocks).toEqual([
      { kind: "heading", level: 1, text: "Guide" },
      { kind: "paragraph", text: "Intro with a link and logo." },
      { kind: "heading", level: 2, text: "Setext title" },
      { kind: "paragraph", text: "- first item" },
      { kind: "paragraph", text: "- second item" },
      { kind: "paragraph", text: "npm install\n# not a heading" },
      { kind: "row", text: "Plan: Basic; Price: 9" },
      { kind: "row", text: "Plan: Pro | Max; Price: 29" },
    ]);
  });

  it("csv: RFC 4180 quotes, delimiters and header detection", () => {
    const rows: string[][] = [];
    parseCsv('a,"b ""quoted"", with comma","multi\nline"\r\n1,2,3\n', ",", (cells) => rows.push(cells) > 0);
    expect(rows).toEqual([
      ["a", 'b "quoted", with comma', "multi\nline"],
      ["1", "2", "3"],
    ]);
    expect(detectDelimiter("nom;prix\nA;1")).toBe(";");
    expect(detectDelimiter("a\tb\n")).toBe("\t");
    expect(texts(extractCsv("Name,City\nAnn,Paris\nBob,\n").blocks)).toEqual(["Name: Ann; City: Paris", "Name: Bob"]);
  });

  it("csv: caps rows and marks the document truncated", () => {
    const many = ["id,value", ...Array.from({ length: 250_000 }, (_, i) => `${i},v${i}`)].join("\n");
    const doc = extractCsv(many);
    expect(doc.truncated).toBe(true);
    expect(doc.blocks.length).toBeLessThan(250_000);
  });

  it("json: records as rows, long strings as paragraphs, top-level keys as headings", () => {
    const json = JSON.stringify({
      name: "Shop",
      products: [
        { sku: "A1", title: "Lamp", price: 20 },
        { sku: "B2", title: "Desk", tags: ["wood", "oak"] },
      ],
      faq: { shipping: "x".repeat(250) },
    });
    expect(extractJson(json, "a.json").blocks).toEqual([
      { kind: "row", text: "name: Shop" },
      { kind: "heading", level: 1, text: "products" },
      { kind: "row", text: "products[0] - sku: A1; title: Lamp; price: 20" },
      { kind: "row", text: "products[1] - sku: B2; title: Desk; tags: wood, oak" },
      { kind: "heading", level: 1, text: "faq" },
      { kind: "paragraph", text: `faq.shipping: ${"x".repeat(250)}` },
    ]);
  });

  it("json: survives deep nesting and odd keys", () => {
    const deep = "[".repeat(5000) + "1" + "]".repeat(5000);
    expect(extractJson(deep, "d.json").blocks.length).toBe(1);
    const odd = extractJson('{"__proto__": {"x": 1}, "constructor": "c"}', "o.json");
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(texts(odd.blocks).join("|")).toContain("__proto__");
  });

  it("xml: element names as context, no entity expansion", () => {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE catalog [<!ENTITY boom "&boom;&boom;"> ]>
<catalog xmlns="urn:x">
  <title>Spring &amp; summer</title>
  <book id="7"><name>Dune</name><price currency="EUR">10</price></book>
  <book id="8"><name><![CDATA[Fondation <1>]]></name></book>
  <note>&boom; stays as written</note>
</catalog>`;
    expect(extractXml(xml).blocks).toEqual([
      { kind: "row", text: "catalog - title: Spring & summer" },
      { kind: "row", text: "catalog > book - id: 7; name: Dune; price: 10 (currency: EUR)" },
      { kind: "row", text: "catalog > book - id: 8; name: Fondation <1>" },
      { kind: "row", text: "catalog - note: &boom; stays as written" },
    ]);
  });
});

describe("limits", () => {
  it("stops collecting at the character budget and says so", () => {
    const out = new BlockCollector(100);
    expect(out.paragraph("a".repeat(60))).toBe(true);
    expect(out.paragraph("b".repeat(60))).toBe(false);
    expect(out.finish()).toMatchObject({ truncated: true, blocks: [{ text: "a".repeat(60) }] });
  });
});

describe("json: large files are walked element by element", () => {
  const records = Array.from({ length: 12_000 }, (_, i) => ({ id: i, name: `Item ${i}`, tags: ["a", "b"], about: "y".repeat(60) }));
  const big = { title: "Catalog", products: records, meta: { version: 2, notes: "z".repeat(300) } };

  it("gives the same blocks as parsing the whole file", () => {
    const text = JSON.stringify(big, null, 1);
    expect(text.length).toBeGreaterThan(1_000_000);
    const sliced = extractJson(text, "big.json").blocks;
    // The same document, small enough to be parsed whole, is the reference.
    const reference = [
      ...extractJson(JSON.stringify({ title: "Catalog", products: records.slice(0, 3) }), "r.json").blocks.slice(0, 3),
    ];
    expect(sliced.slice(0, 3)).toEqual(reference);
    expect(sliced.filter((b) => b.kind === "heading").map((b) => b.text)).toEqual(["products", "meta"]);
    expect(sliced).toContainEqual({ kind: "row", text: `products[11999] - id: 11999; name: Item 11999; tags: a, b; about: ${"y".repeat(60)}` });
    expect(sliced).toContainEqual({ kind: "paragraph", text: `meta.notes: ${"z".repeat(300)}` });
  });

  it("reports a broken element or structure as invalid JSON", () => {
    const text = JSON.stringify(big);
    const broken = text.replace('"Item 500"', '"Item 500');
    expect(() => extractJson(broken, "b.json")).toThrow(KnowledgeError);
    expect(() => extractJson(text.slice(0, -1), "b.json")).toThrow("b.json is not valid JSON.");
    expect(() => extractJson(text.replace("[{", "[{,"), "b.json")).toThrow(KnowledgeError);
  });
});
