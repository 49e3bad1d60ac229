import { describe, expect, it } from "vitest";
import { chatUi } from "../../../../contract";
import { codeLanguage, escapeHtml, isSafeHref, renderMarkdown } from "./markdown";

// The renderer is the first wall; DOMPurify (markdown-dom.ts) needs a DOM, so the sanitised result
// is checked in the browser by tests/e2e/chat.spec.ts.
describe("renderMarkdown", () => {
  it("renders the usual markdown", () => {
    const html = renderMarkdown("# Title\n\nSome **bold** and `code`.\n\n- one\n- two");
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain("<li>one</li>");
  });

  it("shows raw HTML as text: no script tag, no event-handler attribute survives as markup", () => {
    const html = renderMarkdown('Hi <script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n<div onclick=alert(3)>x</div>');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<div onclick/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
  });

  it("drops javascript: and data: links, keeping their text", () => {
    const html = renderMarkdown("[click](javascript:alert(1)) [data](data:text/html,hi) [ok](https://example.com)");
    expect(html).not.toMatch(/href="(javascript|data):/i);
    expect(html).toContain("click");
    expect(html).toContain('<a href="https://example.com">ok</a>');
  });

  it("turns images into links, so a reply never makes the browser fetch an address", () => {
    const html = renderMarkdown("![pixel](https://evil.example/p.png?q=secret) ![bad](javascript:alert(1))");
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('<a href="https://evil.example/p.png?q=secret">pixel</a>');
    expect(html).not.toMatch(/javascript:/i);
  });

  it("wraps fenced code with its language and a Copy button, the code escaped", () => {
    const html = renderMarkdown("```ts\nconst a = '<b>' && 1;\n```");
    expect(html).toContain('class="code-block"');
    expect(html).toContain('<span class="code-lang">ts</span>');
    expect(html).toContain(`data-copy-code="" aria-label="${chatUi.copyCode}">${chatUi.copy}</button>`);
    expect(html).toContain('<code class="language-ts">const a = &#39;&lt;b&gt;&#39; &amp;&amp; 1;</code>');
  });

  it("keeps an unfinished fence (a reply still streaming) as code", () => {
    expect(renderMarkdown("Look:\n\n```js\nlet x = 1;")).toContain('<code class="language-js">let x = 1;</code>');
  });
});

describe("helpers", () => {
  it("isSafeHref accepts http(s), mailto and anchors only, whatever the spacing or case", () => {
    for (const ok of ["https://a.b", "http://a.b/c?d", "mailto:x@y.z", "#part"]) expect(isSafeHref(ok)).toBe(true);
    for (const bad of ["javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:alert(1)", "data:text/html,x", "vbscript:x", "/relative", "file:///etc/passwd"]) {
      expect(isSafeHref(bad)).toBe(false);
    }
  });

  it("codeLanguage keeps a short, safe name", () => {
    expect(codeLanguage("ts")).toBe("ts");
    expect(codeLanguage('js" onmouseover="x')).toBe("js");
    expect(codeLanguage(undefined)).toBe("");
    expect(codeLanguage("c++ {title}")).toBe("c++");
  });

  it("escapeHtml escapes the five characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  });
});
