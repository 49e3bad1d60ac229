import { describe, expect, it } from "vitest";
import { chunkBlocks } from "./chunk";
import { splitLong, splitSentences } from "./sentences";
import { estimateTokens, sliceByTokens } from "./tokens";
import type { Block } from "./types";

const paragraph = (text: string): Block => ({ kind: "paragraph", text });
const heading = (text: string, level = 1): Block => ({ kind: "heading", level, text });
const row = (text: string): Block => ({ kind: "row", text });

describe("estimateTokens", () => {
  it("counts about 4 ASCII characters per token and more for other scripts", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("a".repeat(400))).toBe(100);
    expect(estimateTokens("退款政策")).toBe(4);
    expect(estimateTokens("مرحبا")).toBe(3);
    expect(estimateTokens("😀")).toBe(1);
  });

  it("slices by token budget without splitting a surrogate pair", () => {
    expect(sliceByTokens("abcdefgh", 0, 1)).toBe(4);
    expect(sliceByTokens("😀😀😀", 0, 2)).toBe(4);
  });
});

describe("splitSentences", () => {
  it("splits English, French, CJK and Arabic sentence ends", () => {
    expect(splitSentences("Hello there. How are you? Fine!").map((p) => p.text)).toEqual(["Hello there.", "How are you?", "Fine!"]);
    expect(splitSentences("M. Dupont est arrivé. Il pleut « vraiment ». Oui.").map((p) => p.text)).toEqual([
      "M. Dupont est arrivé.",
      "Il pleut « vraiment ».",
      "Oui.",
    ]);
    expect(splitSentences("我们提供退款。请联系我们！谢谢").map((p) => p.text)).toEqual(["我们提供退款。", "请联系我们！", "谢谢"]);
    expect(splitSentences("هل لديكم شحن؟ نعم لدينا.").map((p) => p.text)).toEqual(["هل لديكم شحن؟", "نعم لدينا."]);
  });

  it("does not split after abbreviations, initials, decimals or before lower case", () => {
    expect(splitSentences("Ask Dr. Smith about e.g. refunds. It costs 3.50 euros. J. R. Tolkien wrote it.").map((p) => p.text)).toEqual([
      "Ask Dr. Smith about e.g. refunds.",
      "It costs 3.50 euros.",
      "J. R. Tolkien wrote it.",
    ]);
  });

  it("treats line breaks as boundaries and remembers them", () => {
    expect(splitSentences("line one\nline two")).toEqual([
      { text: "line one", joiner: "" },
      { text: "line two", joiner: "\n" },
    ]);
  });

  it("splits an over-long run at words, and a spaceless run by characters", () => {
    const pieces = splitLong("word ".repeat(1000), 50);
    expect(pieces.every((p) => estimateTokens(p.text) <= 50)).toBe(true);
    expect(pieces.map((p) => p.text).join(" ")).toBe("word ".repeat(1000).trim());
    const spaceless = splitLong("x".repeat(1000), 50);
    expect(spaceless.map((p) => p.text).join("")).toBe("x".repeat(1000));
    expect(spaceless.every((p) => estimateTokens(p.text) <= 50)).toBe(true);
  });
});

describe("chunkBlocks", () => {
  it("returns nothing for empty input", () => {
    expect(chunkBlocks([])).toEqual({ chunks: [], truncated: false });
    expect(chunkBlocks([heading("Only a title"), paragraph("   ")]).chunks).toEqual([]);
  });

  it("packs short paragraphs into one chunk under their heading path", () => {
    const { chunks } = chunkBlocks([heading("Guide"), heading("Returns", 2), paragraph("One."), paragraph("Two.")]);
    expect(chunks).toEqual([{ ordinal: 0, heading: "Guide > Returns", headingPath: ["Guide", "Returns"], content: "One.\nTwo.", tokenCount: 3 }]);
  });

  it("starts a new chunk at each heading and pops the path on a sibling heading", () => {
    const { chunks } = chunkBlocks([
      heading("A"),
      heading("A.1", 2),
      paragraph("first"),
      heading("A.2", 2),
      paragraph("second"),
      heading("B"),
      paragraph("third"),
    ]);
    expect(chunks.map((c) => [c.heading, c.content])).toEqual([
      ["A > A.1", "first"],
      ["A > A.2", "second"],
      ["B", "third"],
    ]);
  });

  it("keeps chunks near the target, under the maximum, with ~15% sentence overlap", () => {
    const sentences = Array.from({ length: 300 }, (_, i) => `Sentence number ${i} talks about refunds and shipping times.`);
    const { chunks } = chunkBlocks([paragraph(sentences.join(" "))]);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(512);
      expect(chunk.content.endsWith(".")).toBe(true);
    }
    for (const chunk of chunks.slice(0, -1)) expect(chunk.tokenCount).toBeGreaterThan(300);
    for (let i = 1; i < chunks.length; i++) {
      const previous = splitSentences(chunks[i - 1]!.content).map((p) => p.text);
      const first = splitSentences(chunks[i]!.content)[0]!.text;
      // The next chunk opens with the previous chunk's last sentence(s), whole.
      expect(previous).toContain(first);
      const overlap = chunks[i]!.content.slice(0, chunks[i]!.content.indexOf(previous[previous.length - 1]!) + previous[previous.length - 1]!.length);
      expect(estimateTokens(overlap)).toBeLessThanOrEqual(60);
    }
    // Every sentence is somewhere.
    const all = chunks.map((c) => c.content).join(" ");
    for (const s of sentences) expect(all).toContain(s);
  });

  it("handles a single 10k-character paragraph with no punctuation", () => {
    const words = Array.from({ length: 1700 }, (_, i) => `mot${i}`).join(" ");
    expect(words.length).toBeGreaterThan(10_000);
    const { chunks } = chunkBlocks([paragraph(words)]);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(512);
    // Nothing lost, order kept, and consecutive chunks overlap.
    expect(chunks[0]!.content.startsWith("mot0 mot1")).toBe(true);
    expect(chunks[chunks.length - 1]!.content.endsWith("mot1699")).toBe(true);
    const lastWord = chunks[0]!.content.split(" ").pop()!;
    expect(chunks[1]!.content.split(" ")).toContain(lastWord);
  });

  it("handles a spaceless 10k-character run (no words, no punctuation)", () => {
    const { chunks } = chunkBlocks([paragraph("z".repeat(10_000))]);
    expect(chunks.map((c) => c.content).join("").replace(/\s/g, "").length).toBeGreaterThanOrEqual(10_000);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(512);
  });

  it("chunks Arabic and French text at sentence ends within budget", () => {
    const arabic = "تقدم شركتنا خدمة التوصيل المجاني لجميع الطلبات داخل المدينة. ".repeat(120);
    const french = "Notre politique de remboursement est simple et généreuse pour tous les clients. ".repeat(120);
    const { chunks } = chunkBlocks([heading("الشحن"), paragraph(arabic), heading("Remboursements"), paragraph(french)]);
    const arabicChunks = chunks.filter((c) => c.heading === "الشحن");
    const frenchChunks = chunks.filter((c) => c.heading === "Remboursements");
    expect(arabicChunks.length).toBeGreaterThan(1);
    expect(frenchChunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(512);
      expect(chunk.content.endsWith(".")).toBe(true);
    }
  });

  it("never splits a table row, over a 5000-row sheet", () => {
    const rows = Array.from({ length: 5000 }, (_, i) => row(`Product: Item ${i}; Price: ${i % 97}; Stock: ${i % 13}; Notes: row ${i}`));
    const { chunks } = chunkBlocks([heading("Inventory", 2), ...rows]);
    const seen = chunks.flatMap((c) => c.content.split("\n"));
    expect(seen).toHaveLength(5000); // rows do not overlap and are never cut
    expect(seen).toEqual(rows.map((r) => r.text));
    for (const chunk of chunks) {
      expect(chunk.heading).toBe("Inventory");
      expect(chunk.tokenCount).toBeLessThanOrEqual(400);
    }
  });

  it("splits a row larger than a chunk between cells", () => {
    const cells = Array.from({ length: 400 }, (_, i) => `Column ${i}: value ${i}`).join("; ");
    const { chunks } = chunkBlocks([row(cells)]);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(512);
      expect(chunk.content.startsWith("Column ")).toBe(true);
    }
  });

  it("stops at maxChunks and reports truncation", () => {
    const blocks = Array.from({ length: 50 }, (_, i) => [heading(`H${i}`), paragraph(`Body ${i}.`)]).flat();
    const result = chunkBlocks(blocks, { maxChunks: 10 });
    expect(result.chunks).toHaveLength(10);
    expect(result.truncated).toBe(true);
  });

  it("is deterministic", () => {
    const blocks = [heading("T"), paragraph("Alpha beta. ".repeat(500)), row("a: 1; b: 2")];
    expect(chunkBlocks(blocks)).toEqual(chunkBlocks(blocks));
  });
});
