import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "./front-matter";

describe("parseFrontMatter", () => {
  it("splits fields and body", () => {
    const { data, body } = parseFrontMatter("---\nid: 3\ntitle: \"AI: a guide\"\nlang: en\n---\n\nHello **world**\n");
    expect(data).toEqual({ id: "3", title: "AI: a guide", lang: "en" });
    expect(body).toBe("Hello **world**\n");
  });

  it("accepts CRLF, a BOM, comments, single quotes and trailing comments", () => {
    const { data } = parseFrontMatter("\uFEFF---\r\n# a comment\r\ntitle: 'L''IA au Maroc'\r\ndate: 2026-09-15 # published\r\n---\r\nbody");
    expect(data).toEqual({ title: "L'IA au Maroc", date: "2026-09-15" });
  });

  it("keeps colons and # inside quoted values", () => {
    expect(parseFrontMatter('---\ntitle: "C# tips: #1"\n---\n').data.title).toBe("C# tips: #1");
  });

  it("refuses a file without front matter, an unclosed block, a malformed line or a duplicate key", () => {
    expect(() => parseFrontMatter("# Title\n")).toThrow(/must start with/);
    expect(() => parseFrontMatter("---\ntitle: x\n")).toThrow(/closing/);
    expect(() => parseFrontMatter("---\njust text\n---\n")).toThrow(/line 2/);
    expect(() => parseFrontMatter("---\na: 1\na: 2\n---\n")).toThrow(/duplicate/);
  });
});
