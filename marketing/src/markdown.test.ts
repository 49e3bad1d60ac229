import { describe, expect, it } from "vitest";
import { fillPlaceholders, readingMinutes, renderMarkdown } from "./markdown";

describe("renderMarkdown", () => {
  it("gives headings stable, unique ids", () => {
    const html = renderMarkdown("## How do I install Tala as an app?\n\n## Pricing\n\n### Pricing\n", "t");
    expect(html).toContain('<h2 id="how-do-i-install-tala-as-an-app">How do I install Tala as an app?</h2>');
    expect(html).toContain('<h2 id="pricing">Pricing</h2>');
    expect(html).toContain('<h3 id="pricing-2">Pricing</h3>');
  });

  it("strips accents from ids and keeps inline markup in the heading", () => {
    expect(renderMarkdown("## Là où il est *utile*", "t")).toBe('<h2 id="la-ou-il-est-utile">Là où il est <em>utile</em></h2>\n');
  });

  it("refuses an h1: the page title is the only one", () => {
    expect(() => renderMarkdown("# Title", "post 9")).toThrow(/post 9/);
  });
});

describe("fillPlaceholders", () => {
  it("fills known names and refuses unknown ones", () => {
    expect(fillPlaceholders("Codes last {{ codeTtlMinutes }} minutes.", { codeTtlMinutes: 15 }, "x")).toBe("Codes last 15 minutes.");
    expect(() => fillPlaceholders("{{nope}}", {}, "privacy-policy.md")).toThrow(/privacy-policy\.md.*nope/);
  });
});

describe("readingMinutes", () => {
  it("is at least one minute, about 220 words a minute", () => {
    expect(readingMinutes("short")).toBe(1);
    expect(readingMinutes("word ".repeat(660))).toBe(3);
  });
});
