import { describe, expect, it } from "vitest";
import type { VNode } from "preact";
import { inline, renderMarkdown, safeHref } from "./markdown";

type Node = VNode<Record<string, unknown>> | string | number | null | undefined | boolean | Node[];

/** Every element VNode of a tree (depth first). */
function elements(node: Node, out: VNode<Record<string, unknown>>[] = []): VNode<Record<string, unknown>>[] {
  if (Array.isArray(node)) node.forEach((n) => elements(n, out));
  else if (node && typeof node === "object") {
    out.push(node);
    elements(node.props.children as Node, out);
  }
  return out;
}
/** The text a tree shows. */
function text(node: Node): string {
  if (Array.isArray(node)) return node.map(text).join("");
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (node && typeof node === "object") return node.type === "br" ? "\n" : text(node.props.children as Node);
  return "";
}
const render = (md: string) => renderMarkdown(md) as Node;

/** Nothing but a small set of harmless tags, no event handlers, no raw HTML, safe links only. */
function expectSafe(tree: Node) {
  for (const el of elements(tree)) {
    expect(typeof el.type).toBe("string");
    expect(["p", "strong", "em", "code", "pre", "ul", "ol", "li", "a", "br", "blockquote"]).toContain(el.type);
    for (const key of Object.keys(el.props)) {
      expect(key).not.toMatch(/^on|dangerouslySetInnerHTML|style|src/i);
    }
    if (el.type === "a") {
      expect(String(el.props.href)).toMatch(/^(https?:|mailto:)/);
      expect(el.props.rel).toBe("noopener noreferrer nofollow");
      expect(el.props.target).toBe("_blank");
    }
  }
}

describe("renderMarkdown: XSS attempts stay text", () => {
  it("renders <script> as text", () => {
    const tree = render("Hi <script>alert(1)</script> there");
    expectSafe(tree);
    expect(text(tree)).toBe("Hi <script>alert(1)</script> there");
  });

  it("renders <img onerror> as text", () => {
    const tree = render('<img src=x onerror="alert(1)">\n\n**<b onclick=alert(1)>x</b>**');
    expectSafe(tree);
    expect(text(tree)).toContain('<img src=x onerror="alert(1)">');
    expect(text(tree)).toContain("<b onclick=alert(1)>x</b>");
  });

  it("drops javascript:, data: and vbscript: links, keeping their words", () => {
    for (const href of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:x", "/relative", "//evil.example"]) {
      const tree = render(`[click me](${href})`);
      expectSafe(tree);
      expect(elements(tree).some((e) => e.type === "a")).toBe(false);
      expect(text(tree)).toContain("click me");
    }
  });

  it("keeps HTML entities literal", () => {
    const tree = render("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#x3C;img&#x3E; `&lt;b&gt;`");
    expectSafe(tree);
    expect(text(tree)).toBe("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#x3C;img&#x3E; &lt;b&gt;");
  });

  it("keeps HTML inside code blocks as text", () => {
    const tree = render("```html\n<script>alert(1)</script>\n```");
    expectSafe(tree);
    const pre = elements(tree).find((e) => e.type === "pre");
    expect(text(pre as Node)).toBe("<script>alert(1)</script>");
  });
});

describe("renderMarkdown: the supported subset", () => {
  it("links http, https and mailto with a safe rel and a new tab", () => {
    const tree = render("See [docs](https://example.com/a?b=1), mail [us](mailto:a@b.example) or https://tala.example/x.");
    expectSafe(tree);
    const links = elements(tree).filter((e) => e.type === "a");
    expect(links.map((l) => l.props.href)).toEqual(["https://example.com/a?b=1", "mailto:a@b.example", "https://tala.example/x"]);
    expect(text(tree)).toBe("See docs, mail us or https://tala.example/x.");
  });

  it("parses bold, italic, inline code and line breaks", () => {
    const tree = inline("a **b** *c* _d_ __e__ `f*g*` snake_case_name\nnext") as Node;
    expect(elements(tree).map((e) => e.type)).toEqual(["strong", "em", "em", "strong", "code", "br"]);
    expect(text(tree)).toBe("a b c d e f*g* snake_case_name\nnext");
  });

  it("renders paragraphs, lists, quotes, headings and fences", () => {
    const tree = render("# Title\n\nIntro line\n\n- one\n- two\n  more\n\n3. three\n4. four\n> quoted\n> again\n\n```\ncode\n```\nafter");
    expectSafe(tree);
    expect((tree as VNode[]).map((b) => b.type)).toEqual(["p", "p", "ul", "ol", "blockquote", "pre", "p"]);
    const [ul, ol] = [(tree as VNode[])[2]!, (tree as VNode[])[3]!];
    expect(text(ul as Node)).toBe("onetwo\nmore");
    expect((ol.props as { start?: number }).start).toBe(3);
    expect(text(tree)).toContain("Intro line");
  });

  it("renders an unfinished fence while an answer streams", () => {
    const tree = render("```js\nlet a");
    expect(elements(tree).map((e) => e.type)).toEqual(["pre", "code"]);
    expect(text(tree)).toBe("let a");
  });

  it("renders the offline answer's numbered excerpts and quotes", () => {
    const tree = render('Intro:\n\n1. From "faq.txt":\n> Refunds within 30 days.\n\nSources: faq.txt');
    expectSafe(tree);
    expect(elements(tree).map((e) => e.type)).toEqual(["p", "ol", "li", "blockquote", "p", "p"]);
    expect(text(tree)).toContain("Refunds within 30 days.");
  });

  it("safeHref accepts only http, https and mailto", () => {
    expect(safeHref(" https://a.example ")).toBe("https://a.example/");
    expect(safeHref("ftp://a.example")).toBeNull();
    expect(safeHref("javascript:alert(1)")).toBeNull();
  });

  it("safeHref with an empty base (the dashboard's Playground, no host of its own) still takes an absolute address", () => {
    expect(safeHref("https://tala.example/api/widget/avatar/a1/f1", true, "")).toBe("https://tala.example/api/widget/avatar/a1/f1");
    expect(safeHref("/api/widget/avatar/a1/f1", true, "")).toBeNull();
  });

  it("safeHref(url, web) is for web pages: absolute http and https only", () => {
    expect(safeHref("https://shop.example/returns?x=1#y", true)).toBe("https://shop.example/returns?x=1#y");
    expect(safeHref(" HTTP://Shop.Example/a b ", true)).toBe("http://shop.example/a%20b");
    for (const bad of ["mailto:a@shop.example", "javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<b>x</b>", "/returns", "//shop.example/x", "returns.html", "", "vbscript:x", "file:///etc/passwd"]) {
      expect(safeHref(bad, true)).toBeNull();
    }
    // Markdown links keep mailto.
    expect(safeHref("mailto:a@shop.example")).toBe("mailto:a@shop.example");
  });
});
