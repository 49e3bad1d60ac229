import { describe, expect, it } from "vitest";
import { walkHtml, type HtmlTreeHandler } from "./html-tree";

/** The tree as text: `name(children)`, text as written, raw-text contents in quotes. */
function tree(html: string, maxDepth?: number): string {
  let out = "";
  const handler: HtmlTreeHandler = {
    stopped: false,
    enter: (element) => void (out += `${element.name}(`),
    leave: () => void (out += ")"),
    text: (raw) => void (out += raw),
    rawText: (name, raw) => void (out += `"${raw}"`),
  };
  walkHtml(html, handler, maxDepth);
  return out;
}

describe("walkHtml", () => {
  it("closes what a new element implies: p, li, dt/dd, cells and rows, headings, a", () => {
    expect(tree("<p>a<p>b<div>c</div>")).toBe("p(a)p(b)div(c)");
    expect(tree("<button><p>in button<p>next</button>")).toBe("button(p(in button)p(next))");
    expect(tree("<ul><li>a<li>b<ul><li>c</ul><li>d</ul>")).toBe("ul(li(a)li(bul(li(c)))li(d))");
    expect(tree("<dl><dt>t<dd>d<dt>u</dl>")).toBe("dl(dt(t)dd(d)dt(u))");
    expect(tree("<table><tr><td>a<td>b<tr><th>c</table>x")).toBe("table(tr(td(a)td(b))tr(th(c)))x");
    expect(tree("<h1>a<h2>b</h2>")).toBe("h1(a)h2(b)");
    expect(tree("<a href=1>one<a href=2>two</a>")).toBe("a(one)a(two)");
  });

  it("lets an end tag close only what is in scope", () => {
    expect(tree("<div><span>a</div>b")).toBe("div(span(a))b");
    expect(tree("<span><div>a</span>b</div>")).toBe("span(div(ab))");
    expect(tree("<div><table><tr><td>a</div>b</td></tr></table>c</div>")).toBe("div(table(tr(td(ab)))c)");
    expect(tree("<table><tr><td><p>a</td>b</table>")).toBe("table(tr(td(p(a))b))");
    expect(tree("<table><tr><td>a</tr>b</table>")).toBe("table(tr(td(a))b)");
    expect(tree("<table><tr><td><table><tr><td>in</table>out</td></tr></table>")).toBe("table(tr(td(table(tr(td(in)))out)))");
    expect(tree("</p></div>text</x>")).toBe("text");
  });

  it("closes the head at body content, ignores </body> and </html>, and reads </br> as <br>", () => {
    expect(tree("<html><head><title>t</title><p>x")).toBe('html(head(title("t"))p(x))');
    expect(tree("<head><meta charset=utf-8>words")).toBe("head(meta())words");
    expect(tree("<body><main>a</body></html>b</main>")).toBe("body(main(ab))");
    expect(tree("a</br>b")).toBe("abr()b");
  });

  it("knows void elements, raw text, and self-closing tags inside svg only", () => {
    expect(tree("<p>a<br>b<img src=x>c<input>d")).toBe("p(abr()bimg()cinput()d)");
    expect(tree('<script>if (a<b) "</div>"</script><style>p>a{}</style>x')).toBe('script("if (a<b) "</div>"")style("p>a{}")x');
    expect(tree("<div/>a</div>")).toBe("div(a)");
    expect(tree("<svg><path/><title>t</title><![CDATA[<p>]]></svg>after")).toBe('svg(path()title(t)"<p>")after');
  });

  it("caps the open stack: past the depth, an element is empty and its content goes to the deepest one", () => {
    expect(tree("<b><i><u>x</u></i></b>", 2)).toBe("b(i(u()x))");
    const deep = tree(`${"<div>".repeat(50_000)}x`, 100);
    expect(deep.startsWith("div(".repeat(100))).toBe(true);
    expect(deep.endsWith(`${"div()".repeat(49_900)}x${")".repeat(100)}`)).toBe(true);
  });
});
