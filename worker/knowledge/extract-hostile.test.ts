import { describe, expect, it, vi } from "vitest";
import { knowledgeLimits, knowledgeMessages } from "../../contract";
import { makeDocx, makeWorkbook, utf8 } from "../../tests/fixtures/knowledge-files";
import { hostileCorpus, writeZip } from "../../tests/fixtures/hostile-files";
import { chunkBlocks } from "./chunk";
import { KnowledgeError } from "./errors";
import { extractFile } from "./extract";
import { BlockCollector, TableWriter, bySlices, beforeNonSpace, normalizeInline } from "./extract/collector";
import { parseCsv } from "./extract/csv";
import { ExtractGuard, megabytes } from "./extract/guard";
import { nestedDeeperThan } from "./extract/office";
import { extractJson, nestingDepth } from "./extract/json";
import { extractMarkdown } from "./extract/text";
import { extractXml } from "./extract/xml";
import { XmlStream } from "./extract/xml-stream";
import { eachSentence, splitLong, splitSentences } from "./sentences";
import { sniffFile } from "./sniff";
import { crc32, inflateZipEntry, readZipDirectory, streamZipText, writeStoredZip } from "./zip";

const refusal = async (promise: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(KnowledgeError);
    return error as KnowledgeError;
  }
  throw new Error("expected a refusal");
};
const extract = async (name: string, bytes: Uint8Array) => extractFile(sniffFile({ name, bytes }), bytes);
const lineLimit = megabytes(knowledgeLimits.maxLineChars);

describe("CSV caps", () => {
  it("refuses a record longer than maxLineChars, quoted or not, before its cells pile up", async () => {
    const long = "x".repeat(knowledgeLimits.maxLineChars + 10);
    for (const text of [`${long}\n`, `a,"${long}"\n`, `a,b\n1,${long}`]) {
      const error = await refusal(extract("data.csv", utf8(text)));
      expect(error.message).toBe(knowledgeMessages.lineTooLong("data.csv", lineLimit));
      expect(error.reason).toBe("too_complex");
    }
  });

  it("refuses a row with more than maxCellsPerRow cells, and reads one with exactly that many", async () => {
    const error = await refusal(extract("wide.csv", utf8("a,".repeat(knowledgeLimits.maxCellsPerRow) + "a\n")));
    expect(error.message).toBe(knowledgeMessages.tooManyCells("wide.csv", knowledgeLimits.maxCellsPerRow));
    const rows: string[][] = [];
    parseCsv(`${"h,".repeat(knowledgeLimits.maxCellsPerRow - 1)}h\n`, ",", (cells) => rows.push(cells) > 0);
    expect(rows[0]).toHaveLength(knowledgeLimits.maxCellsPerRow);
  });
});

describe("XML caps", () => {
  it("refuses nesting past maxNestingDepth and reads nesting up to it", async () => {
    const deep = (n: number) => `${"<a>".repeat(n)}x${"</a>".repeat(n)}`;
    const error = await refusal(() => extractXml(deep(knowledgeLimits.maxNestingDepth + 1), new BlockCollector(undefined, new ExtractGuard("deep.xml"))));
    expect(error.message).toBe(knowledgeMessages.nestedTooDeep("deep.xml", knowledgeLimits.maxNestingDepth));
    expect(extractXml(deep(knowledgeLimits.maxNestingDepth)).blocks.length).toBeGreaterThan(0);
  });

  it("refuses more than maxXmlElements elements and a tag longer than maxLineChars", async () => {
    const many = await refusal(() => extractXml(`<r>${"<a/>".repeat(knowledgeLimits.maxXmlElements)}</r>`, new BlockCollector(undefined, new ExtractGuard("many.xml"))));
    expect(many.message).toBe(knowledgeMessages.tooManyElements("many.xml", knowledgeLimits.maxXmlElements));
    const tag = await refusal(() => extractXml(`<r><a ${"b".repeat(knowledgeLimits.maxLineChars)}/></r>`, new BlockCollector(undefined, new ExtractGuard("tag.xml"))));
    expect(tag.message).toBe(knowledgeMessages.lineTooLong("tag.xml", lineLimit));
  }, 60_000);

  it("stays linear on lone '<', stray end tags and junk attributes", () => {
    const started = Date.now();
    const doc = extractXml(`<r>${"< ".repeat(300_000)}${"</zz>".repeat(100_000)}<a ${"b".repeat(200_000)}>v</a></r>`);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(doc.blocks.map((b) => b.text).join(" ")).toContain("< <");
  });

  it("the streaming scanner refuses an unfinished tag that outgrows its cap", () => {
    const stream = new XmlStream({ open() {}, close() {}, text() {} }, () => new Error("too long"), 1000);
    expect(() => stream.push(`<a ${"b".repeat(2000)}`)).toThrow("too long");
  });
});

describe("JSON caps", () => {
  it("measures nesting without parsing (strings skipped) and refuses past maxNestingDepth", async () => {
    expect(nestingDepth('{"a":[[1]],"s":"[[[[\\"[["}')).toBe(3);
    const deep = "[".repeat(knowledgeLimits.maxNestingDepth + 1) + "]".repeat(knowledgeLimits.maxNestingDepth + 1);
    const sniffed = await refusal(extract("deep.json", utf8(deep)));
    expect(sniffed.message).toBe(knowledgeMessages.nestedTooDeep("deep.json", knowledgeLimits.maxNestingDepth));
    const direct = await refusal(() => extractJson(deep, "deep.json", new BlockCollector(undefined, new ExtractGuard("deep.json"))));
    expect(direct.message).toBe(sniffed.message);
  });
});

describe("Markdown caps", () => {
  it("refuses a table row wider than maxCellsPerRow", async () => {
    const n = knowledgeLimits.maxCellsPerRow + 1;
    const md = `|${"h|".repeat(n)}\n|${"-|".repeat(n)}\n`;
    const error = await refusal(() => extractMarkdown(md, new BlockCollector(undefined, new ExtractGuard("t.md"))));
    expect(error.message).toBe(knowledgeMessages.tooManyCells("t.md", knowledgeLimits.maxCellsPerRow));
  });

  it("reads links, images, comments and table delimiters in linear time", () => {
    const started = Date.now();
    const doc = extractMarkdown(`${"[a](".repeat(50_000)}\n\n${"<!--".repeat(50_000)}\n\n| a |\n|---${" ".repeat(200_000)}x\n\nSee [the guide](https://x.test/a) and ![logo](l.png) <!-- note --> here.`);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(doc.blocks.at(-1)!.text).toBe("See the guide and logo here.");
  });
});

describe("text that V8 regexes would balloon", () => {
  it("normalizes in slices with the same result as one pass", () => {
    const text = ` a\t\tb \n${"word  ".repeat(40_000)}\u3000end `;
    expect(normalizeInline(text)).toBe(text.replace(/\s+/g, " ").trim());
    expect(bySlices("ab".repeat(100_000), (s) => s.toUpperCase(), beforeNonSpace)).toBe("AB".repeat(100_000));
  });

  it("yields sentences one at a time, as splitSentences lists them", () => {
    const text = "First one. Second one! Third?\nFourth";
    expect([...eachSentence(text)]).toEqual(splitSentences(text));
  });

  it("chunks a 2 MB paragraph of one-letter words", () => {
    const { chunks } = chunkBlocks([{ kind: "paragraph", text: "a ".repeat(1_000_000) }]);
    expect(chunks.length).toBeGreaterThan(100);
  });

  it("caps blocks per file: past maxBlocks the document is truncated", () => {
    const out = new BlockCollector(undefined, new ExtractGuard("f"), 3);
    for (const t of ["a", "b", "c", "d"]) out.paragraph(t);
    expect(out.finish()).toMatchObject({ truncated: true, blocks: [{ text: "a" }, { text: "b" }, { text: "c" }] });
  });
});

describe("zip: inflated bytes are counted, never taken from the headers", () => {
  it("counts while inflating and stops at the meter's cap, whatever the zip claims", async () => {
    const [bomb] = await hostileCorpus({ only: ["docx-bomb-lying"], bombBytes: 40 * 1024 * 1024 });
    const entry = readZipDirectory(bomb!.bytes)!.find((e) => e.name === "word/document.xml")!;
    expect(entry.uncompressedSize).toBe(1000);
    const guard = new ExtractGuard("bomb.docx", 60_000, 10 * 1024 * 1024);
    const error = await refusal(streamZipText(bomb!.bytes, entry, guard, () => undefined));
    expect(error.message).toBe(knowledgeMessages.inflatesTooLarge("bomb.docx", "10 MB"));
    expect(guard.inflated).toBeLessThan(11 * 1024 * 1024);
    expect(await inflateZipEntry(bomb!.bytes, entry, new ExtractGuard("b"), 5 * 1024 * 1024)).toBeNull();
  });

  it("refuses lying and honest bombs through extractFile with the inflated-size message", async () => {
    for (const id of ["docx-bomb-lying", "xlsx-bomb-honest"]) {
      const [file] = await hostileCorpus({ only: [id], bombBytes: knowledgeLimits.maxOfficeXmlBytes + 1024 * 1024 });
      const error = await refusal(extract(file!.name, file!.bytes));
      expect(error.message).toBe(knowledgeMessages.inflatesTooLarge(file!.name, megabytes(knowledgeLimits.maxOfficeXmlBytes)));
    }
  }, 60_000);

  it("re-packs parts as a stored zip that reads back byte for byte (what mammoth and SheetJS get)", async () => {
    const parts = [
      { name: "a.xml", data: utf8("<a>é</a>") },
      { name: "word/media/x.png", data: new Uint8Array(0) },
    ];
    const zip = writeStoredZip(parts);
    const entries = readZipDirectory(zip)!;
    expect(entries.map((e) => [e.name, e.method, e.uncompressedSize])).toEqual([
      ["a.xml", 0, parts[0]!.data.length],
      ["word/media/x.png", 0, 0],
    ]);
    expect(await inflateZipEntry(zip, entries[0]!, new ExtractGuard("z"), 100)).toEqual(parts[0]!.data);
    expect(crc32(utf8("123456789"))).toBe(0xcbf43926);
  });

  it("measures XML depth without parsing, so deep docx markup never reaches mammoth's recursion", () => {
    expect(nestedDeeperThan(utf8('<?xml version="1.0"?><a><b/><c><d>x</d></c></a>'), 3)).toBe(false);
    expect(nestedDeeperThan(utf8("<a><b><c><d/></c></b></a>"), 3)).toBe(true);
  });

  it("still reads honest docx and xlsx through mammoth and SheetJS", async () => {
    const docx = await makeDocx([{ text: "Refunds", heading: 1 }, { text: "Refunds take 14 days." }]);
    expect((await extract("a.docx", docx)).blocks).toEqual([
      { kind: "heading", level: 1, text: "Refunds" },
      { kind: "paragraph", text: "Refunds take 14 days." },
    ]);
    const xlsx = makeWorkbook({ Prices: [["Product", "Price"], ["Lamp", 20]] });
    expect((await extract("a.xlsx", xlsx)).blocks.map((b) => b.text)).toEqual(["Prices", "Product: Lamp; Price: 20"]);
    const written = await writeZip([{ name: "[Content_Types].xml", text: "<Types/>" }]);
    expect(readZipDirectory(written)!.map((e) => e.name)).toEqual(["[Content_Types].xml"]);
  });
});

describe("the deadline", () => {
  it("fails a file whose reading outlasts maxExtractMs, naming the limit", async () => {
    const guard = new ExtractGuard("slow.csv", -1);
    const error = await refusal(() => parseCsv("a\n".repeat(10_000), ",", () => true, guard));
    expect(error.message).toBe(knowledgeMessages.tookTooLong("slow.csv", 0));
  });
});

describe("tiny files that cost a lot", () => {
  const only = async (id: string) => (await hostileCorpus({ only: [id] }))[0]!;

  it("refuses a row that would repeat one shared string past maxLineChars, before building it (SheetJS and streamed)", async () => {
    for (const id of ["xlsx-shared-string-bomb", "xlsx-shared-string-bomb-stream"]) {
      const f = await only(id);
      expect(f.bytes.length).toBeLessThan(200_000);
      const error = await refusal(extract(f.name, f.bytes));
      expect(error.message).toBe(knowledgeMessages.lineTooLong(f.name, lineLimit));
    }
  });

  it("measures a table row from its cells' lengths and keeps clean values as they are", () => {
    const out = new BlockCollector();
    const table = new TableWriter(out);
    const big = "v".repeat(400_000);
    table.header(["a", "b", "c"]);
    expect(() => table.add([big, big, big])).toThrow(knowledgeMessages.lineTooLong("file", lineLimit));
    expect(() => new TableWriter(out).header([big, big, big])).toThrow(KnowledgeError);
    expect(normalizeInline("a b c")).toBe("a b c");
    expect(normalizeInline("  a \t b\n")).toBe("a b");
  });

  it("counts depth with quoted attribute values skipped and never below zero", () => {
    const deep = (n: number) => utf8(`<r>${'<a x="/>"><b y="/>">'.repeat(n)}${"</b></a>".repeat(n)}</r>`);
    expect(nestedDeeperThan(deep(60), 100)).toBe(true);
    expect(nestedDeeperThan(deep(40), 100)).toBe(false);
    expect(nestedDeeperThan(utf8(`${"</a>".repeat(1000)}${"<a>".repeat(5)}`), 3)).toBe(true);
    expect(nestedDeeperThan(utf8(`${"<a/>".repeat(1000)}<!-- <b><b><b><b> --><![CDATA[<c><c><c><c>]]><?pi <d><d>?>`), 1)).toBe(false);
    expect(nestedDeeperThan(utf8(`<a t='/>'><b><c><d>`), 3)).toBe(true);
  });

  it("reads a docx nested 100,000 levels deep with \"/>\" in its attributes without mammoth", async () => {
    const f = await only("docx-deep-quoted-attrs");
    expect(f.bytes.length).toBeLessThan(50_000);
    const doc = await extract(f.name, f.bytes);
    expect(doc.blocks).toEqual([{ kind: "paragraph", text: "hi" }]);
  });

  it("reports a stack overflow as nesting, never as a damaged file", () => {
    const guard = new ExtractGuard("d.docx");
    let overflow: unknown;
    const recurse = (n: number): number => recurse(n + 1) + 1;
    try {
      recurse(0);
    } catch (error) {
      overflow = error;
    }
    expect(overflow).toBeInstanceOf(RangeError);
    expect(guard.fromRangeError(overflow)?.message).toBe(knowledgeMessages.nestedTooDeep("d.docx", knowledgeLimits.maxNestingDepth));
    expect(guard.fromRangeError(new Error("x"))).toBeNull();
  });

  it("reads an ATX heading followed by a long run of blanks in linear time, closing hashes trimmed", () => {
    const doc = extractMarkdown(`# a${" ".repeat(900_000)}b  ##  \n## Title #\n### C# #\n#### #\n# x#\n`);
    // (bySlices cuts a blank run longer than two slices, so a few spaces may remain between a and b)
    expect(doc.blocks[0]).toMatchObject({ kind: "heading", level: 1 });
    expect(doc.blocks[0]!.text).toMatch(/^a +b$/);
    expect(doc.blocks.slice(1)).toEqual([
      { kind: "heading", level: 2, text: "Title" },
      { kind: "heading", level: 3, text: "C#" },
      { kind: "heading", level: 1, text: "x#" },
    ]);
  });

  it("refuses Markdown lines longer than maxLineChars (plain text has no per-line pattern and reads them)", async () => {
    const long = "x".repeat(knowledgeLimits.maxLineChars + 1);
    const error = await refusal(extract("notes.md", utf8(`ok\n${long}\nok\n`)));
    expect(error.message).toBe(knowledgeMessages.lineTooLong("notes.md", lineLimit));
    expect((await extract("notes.txt", utf8(`ok\n${long}\nok\n`))).blocks).toHaveLength(1);
  });

  it("splits 2 MB of dots (and dots between letters) into sentences in linear time", () => {
    const dots = ".".repeat(2 * 1024 * 1024);
    expect(splitSentences(`${dots}x`)).toEqual([{ text: `${dots}x`, joiner: "" }]);
    const mixed = `${"a....................".repeat(100_000)}x`;
    expect(splitSentences(mixed)).toHaveLength(1);
    expect(splitSentences(`${"!".repeat(500_000)} Next one. And "quoted." Then\n\nline`).map((p) => p.joiner)).toEqual(["", " ", " ", " ", "\n"]);
    expect(splitLong(`word${" ".repeat(2_000_000)}`, 10)).toEqual([{ text: "word", joiner: "" }]);
  });

  it("chunks a 2 MB paragraph of dots", () => {
    const { chunks } = chunkBlocks([{ kind: "paragraph", text: `${".".repeat(2 * 1024 * 1024)}x` }]);
    expect(chunks.length).toBeGreaterThan(0);
  });

  it("fails runaway work by its step budget even when the clock stands still (workerd)", () => {
    const now = Date.now();
    const frozen = vi.spyOn(Date, "now").mockReturnValue(now);
    try {
      const guard = new ExtractGuard("slow.xml", knowledgeLimits.maxExtractMs, knowledgeLimits.maxOfficeXmlBytes, 1000, 50_000);
      expect(guard.maxSteps).toBe(50_000 + knowledgeLimits.extractStepsPerByte * 1000);
      const run = () => {
        for (let i = 0; i < 1_000_000; i++) guard.tick();
      };
      expect(run).toThrow(knowledgeMessages.tooMuchWork("slow.xml"));
      // Inflated bytes raise the budget with the work they bring.
      const zip = new ExtractGuard("z.docx", knowledgeLimits.maxExtractMs, knowledgeLimits.maxOfficeXmlBytes, 0, 0);
      zip.inflate(1000);
      expect(zip.maxSteps).toBe(knowledgeLimits.extractStepsPerByte * 1000);
      expect(() => zip.tick(20_000)).toThrow(KnowledgeError);
    } finally {
      frozen.mockRestore();
    }
  });
});
