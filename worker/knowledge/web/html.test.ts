import { describe, expect, it } from "vitest";
import { knowledgeLimits, webSources } from "../../../contract";
import { chunkBlocks } from "../chunk";
import { extractHtmlPage, robotsDirectives } from "./html";

const paragraph = (text: string) => ({ kind: "paragraph", text });
const heading = (text: string, level: number) => ({ kind: "heading", level, text });
const row = (text: string) => ({ kind: "row", text });
const texts = (html: string, url = "https://acme.test/") => extractHtmlPage(html, url).blocks.map((b) => b.text);

const helpPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Returns &amp; refunds &ndash; Acme Help</title>
<meta property="og:title" content="Not this one">
<link rel="canonical" href="/help/returns?utm_source=feed">
<style>main p { color: red } .x > p {}</style>
<script>var s = "</div><p>not text</p>"; if (a < b) { document.write("<main>") }</script>
</head>
<body class="modal-open">
<a class="skip-link" href="#main">Skip to content</a>
<div id="cookie-banner" class="CookieConsent">We use cookies. <button>Accept</button></div>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="pricing">Pricing</a></li><li><a href="/help/pricing#plans">Plans</a></li></ul></nav></header>
<nav aria-label="Breadcrumb" class="breadcrumbs"><a href="/help/">Help</a> › Returns</nav>
<main id="main">
<h1>Returns and refunds</h1>
<p>You can return an item within <strong>30 days</strong>
   of delivery.</p>
<div class="share-bar"><a href="https://twitter.com/share?u=1">Tweet</a></div>
<h2>How to return</h2>
<ol><li>Open <a href="orders?utm_campaign=a&amp;id=7">your orders</a><li>Pick the item</ol>
<h2>Costs</h2>
<table><tr><th>Item</th><th>Days</th></tr><tr><td>Shoes</td><td>30</td></tr><tr><td>Gift cards<td>0</table>
<pre>npm run return
  --item 7</pre>
<dl><dt>Refund</dt><dd>Money back to your card.</dd></dl>
<blockquote>Fast &#x26; easy &#8212; it&#39;s true</blockquote>
<aside>Related: <a href="faq">FAQ</a></aside>
<form><label>Email</label><input name=e><select><option>One</option></select><textarea>typed</textarea><button>Send</button></form>
<!-- <p>commented out</p> -->
</main>
<footer><p>© Acme 2024</p><a href="mailto:help@acme.test">Mail</a><a href="javascript:void(0)">JS</a><a href="https://other.test/x" rel="nofollow">ext</a></footer>
<div class="newsletter-signup"><h3>Subscribe</h3></div>
<div role="dialog">Chat with us</div>
</body></html>`;

describe("extractHtmlPage: main text", () => {
  it("keeps only the main text of a realistic page, with its headings, list, table, pre, dl and quote", () => {
    const page = extractHtmlPage(helpPage, "https://acme.test/help/returns");
    expect(page.blocks).toEqual([
      heading("Returns and refunds", 1),
      paragraph("You can return an item within 30 days of delivery."),
      heading("How to return", 2),
      paragraph("- Open your orders"),
      paragraph("- Pick the item"),
      heading("Costs", 2),
      row("Item: Shoes; Days: 30"),
      row("Item: Gift cards; Days: 0"),
      paragraph("npm run return\n--item 7"),
      paragraph("Refund: Money back to your card."),
      paragraph("Fast & easy — it's true"),
    ]);
    expect(page.title).toBe("Returns & refunds – Acme Help");
    expect(page.canonical).toBe("https://acme.test/help/returns");
    expect(page.noindex).toBe(false);
    expect(page.nofollow).toBe(false);
    expect(page.truncated).toBe(false);
  });

  it("gives the chunker the heading path of every passage", () => {
    const { chunks } = chunkBlocks(extractHtmlPage(helpPage, "https://acme.test/help/returns").blocks, { targetTokens: 12, maxTokens: 24 });
    const costs = chunks.find((chunk) => chunk.content.includes("Shoes"))!;
    expect(costs.headingPath).toEqual(["Returns and refunds", "Costs"]);
    expect(chunks.every((chunk) => !/cookies|Subscribe|Home|Tweet|Acme 2024|typed|Chat with us/.test(chunk.content))).toBe(true);
  });

  it("reads the <article>s when there is no <main>, and the body minus chrome when there is neither", () => {
    expect(texts("<body><nav>Menu</nav><p>Intro outside</p><article><h2>Post</h2><p>Body</p></article><article><p>Second</p></article></body>")).toEqual([
      "Post",
      "Body",
      "Second",
    ]);
    expect(texts("<body><header><h1>Site</h1></header><div><h1>Title</h1><p>Text</p></div><aside>Ads</aside><footer>Legal</footer></body>")).toEqual(["Title", "Text"]);
    expect(texts('<div role="main"><p>By role</p></div><p>Outside</p>')).toEqual(["By role"]);
    // An empty <main> shell (content rendered elsewhere): the whole body is read.
    expect(texts("<main></main><div><p>Real content</p></div><nav>Menu</nav>")).toEqual(["Real content"]);
  });

  it("keeps an article's own header and footer, and drops the page's", () => {
    expect(texts("<header>Site banner</header><article><header><h1>Post title</h1></header><p>Text</p><footer>Posted in News</footer></article><footer>Legal</footer>")).toEqual([
      "Post title",
      "Text",
      "Posted in News",
    ]);
  });

  it("drops hidden elements, ARIA chrome and banners by id/class, and keeps look-alikes", () => {
    const html = `<main>
      <p hidden>hidden</p><p hidden="until-found">found by search</p><p aria-hidden="true">aria hidden</p><p style="display: none">styled away</p>
      <div role="navigation">role nav</div><div role="complementary">role aside</div><div role="search">role search</div>
      <div class="ad-slot">advert</div><div id="gdpr">gdpr</div><div class="social-links">social</div><div class="popup">popup</div>
      <div class="qc-cmp2-container cmp">consent manager</div><div id="CybotCookiebotDialog">cookiebot</div>
      <div class="cmp-text"><p>AEM component text</p></div><div class="shareholders">Shareholders</div><div class="header-image">Header image</div>
      <h3><button aria-expanded="false">Can I return a gift?</button></h3><div class="answer">Yes, within 30 days.</div>
    </main>`;
    expect(texts(html)).toEqual(["found by search", "AEM component text", "Shareholders", "Header image", "Can I return a gift?", "Yes, within 30 days."]);
  });

  it("keeps a boilerplate-looking wrapper that holds the content", () => {
    // No <main>: the wrapper's class says "cookie", but it holds the h1 and most of the text.
    const html = `<body><div class="page has-cookie-notice"><h1>Opening hours</h1><p>We open at nine every day of the week, holidays included.</p></div>
      <div class="cookie-notice">We use cookies.</div></body>`;
    expect(texts(html)).toEqual(["Opening hours", "We open at nine every day of the week, holidays included."]);
    const noHeading = `<div class="no-ads"><p>${"All the text of this page is here. ".repeat(5)}</p></div><div class="ads">Buy</div>`;
    expect(texts(noHeading)).toEqual(["All the text of this page is here. ".repeat(5).trim()]);
  });
});

describe("extractHtmlPage: title, base, robots, links", () => {
  it("takes <title>, else og:title, else the first h1; never an svg title", () => {
    expect(extractHtmlPage("<title>  Plain\n title </title><h1>H</h1>", "https://a.test/").title).toBe("Plain title");
    expect(extractHtmlPage('<svg><title>Icon</title></svg><meta property="og:title" content="Open &amp; Graph"><h1>H</h1>', "https://a.test/").title).toBe("Open & Graph");
    expect(extractHtmlPage("<title></title><nav><h1>First <em>h1</em></h1></nav><h1>Second</h1>", "https://a.test/").title).toBe("First h1");
    expect(extractHtmlPage("<p>nothing</p>", "https://a.test/").title).toBe("");
    expect(extractHtmlPage(`<title>${"t".repeat(5000)}</title>`, "https://a.test/").title).toHaveLength(webSources.maxTitleChars);
  });

  it("resolves links against <base href> (itself resolved against the page), absolute, deduplicated, without fragments or tracking", () => {
    const html = `<head><base href="/docs/v2/"></head><body>
      <a href="intro">Intro</a><a href="intro#part">Intro again</a><a href="../v1/">Old</a><a href="https://cdn.test/a?utm_medium=x&amp;b=1">CDN</a>
      <a href="ftp://files.test/x">ftp</a><a href="mailto:a@b.test">mail</a><a href="javascript:alert(1)">js</a><a href="https://user:pw@a.test/">creds</a>
      <a href="#top">top</a><a>no href</a><a href="/pricing" rel="nofollow">nofollow</a><area href="/map" alt="m">
      <template><a href="/in-template">t</a></template></body>`;
    expect(extractHtmlPage(html, "https://a.test/docs/start").links).toEqual([
      "https://a.test/docs/v2/intro",
      "https://a.test/docs/v1/",
      "https://cdn.test/a?b=1",
      "https://a.test/docs/v2/",
      "https://a.test/map",
    ]);
    // A javascript: base is ignored; links resolve against the page; the page itself is not a link.
    expect(extractHtmlPage('<base href="javascript:x"><a href="b">b</a><a href="/p">self</a>', "https://a.test/p").links).toEqual(["https://a.test/b"]);
  });

  it("takes at most maxLinksPerPage links", () => {
    const html = Array.from({ length: webSources.maxLinksPerPage + 500 }, (_, i) => `<a href="/p${i}">p</a><a href="/p${i}">again</a>`).join("");
    const { links } = extractHtmlPage(html, "https://a.test/");
    expect(links).toHaveLength(webSources.maxLinksPerPage);
    expect(links.at(-1)).toBe(`https://a.test/p${webSources.maxLinksPerPage - 1}`);
  });

  it("reads noindex / nofollow from robots, talabot and googlebot meta tags, and gives no links when nofollow", () => {
    const both = extractHtmlPage('<meta name="robots" content="noindex,nofollow"><a href="/x">x</a><p>t</p>', "https://a.test/");
    expect([both.noindex, both.nofollow, both.links]).toEqual([true, true, []]);
    const none = extractHtmlPage('<META NAME="GoogleBot" CONTENT="none"><a href="/x">x</a>', "https://a.test/");
    expect([none.noindex, none.nofollow]).toEqual([true, true]);
    const ours = extractHtmlPage('<meta name="TalaBot" content="noindex"><a href="/x">x</a>', "https://a.test/");
    expect([ours.noindex, ours.nofollow, ours.links]).toEqual([true, false, ["https://a.test/x"]]);
    const other = extractHtmlPage('<meta name="bingbot" content="noindex, nofollow"><meta name="robots" content="index, follow">', "https://a.test/");
    expect([other.noindex, other.nofollow]).toEqual([false, false]);
  });

  it("parses X-Robots-Tag style directives", () => {
    expect(robotsDirectives("noindex")).toEqual({ noindex: true, nofollow: false });
    expect(robotsDirectives("otherbot: noindex, nofollow")).toEqual({ noindex: false, nofollow: true });
    expect(robotsDirectives("talabot: none")).toEqual({ noindex: true, nofollow: true });
    expect(robotsDirectives("unavailable_after: 2020-01-01, nofollow")).toEqual({ noindex: false, nofollow: true });
  });

  it("resolves the canonical link; a non-http one is null", () => {
    expect(extractHtmlPage('<link rel="alternate canonical" href="https://A.test:443/x#y">', "https://a.test/z").canonical).toBe("https://a.test/x");
    expect(extractHtmlPage('<link rel="canonical" href="data:text/html,x">', "https://a.test/").canonical).toBeNull();
  });
});

describe("extractHtmlPage: markup gone wrong", () => {
  it("decodes named, decimal, hex and windows-1252-range references; unknown names stay", () => {
    expect(texts("<p>&copy; &eacute;t&eacute; &#233;&#xE9; &#150; &#39 &bogus; &amp;amp; &#0; &#x110000;</p>")).toEqual(["© été éé – ' &bogus; &amp; \ufffd \ufffd"]);
  });

  it("survives unclosed and misnested tags, stray '<', comments, CDATA and raw text", () => {
    expect(texts("<p>one<p>two<li>three<div>four</span>five</div>")).toEqual(["one", "two", "- three", "fourfive"]);
    expect(texts("<p>a < b and c <= d, x <3 y, 1<2</p>")).toEqual(["a < b and c <= d, x <3 y, 1<2"]);
    expect(texts("<p>before<!-- <p>hidden</p> --> after</p><p>x<!--> y</p><p>z<![CDATA[ w ]]> v</p>")).toEqual(["before after", "x y", "z v"]);
    expect(texts('<p>kept</p><style>p::after{content:"</p><p>css"}</style><textarea><p>typed</textarea><title>t</title><p>end</p>')).toEqual(["kept", "end"]);
    expect(texts("<table><tr><td>a</div>b<td>c</table><p>after</p>")).toEqual(["ab; c", "after"]);
    // </body> and </html> in the middle close nothing: the rest is still the page's main text.
    expect(texts("<html><body><main><p>first</p></body></html><p>second</p></main><nav>menu</nav>")).toEqual(["first", "second"]);
    // A start tag or quoted value left open at the end is dropped, as browsers do.
    expect(texts('<p>text</p><a href="x')).toEqual(["text"]);
  });

  it("takes the head as closed by the first body content, even without </head>", () => {
    expect(texts("<html><head><title>T</title><meta charset=utf-8><div><p>Body text</p></div>")).toEqual(["Body text"]);
  });
});

describe("extractHtmlPage: hostile input stays bounded", () => {
  const twoMegabytes = webSources.maxPageBytes;

  it("reads 100,000 nested <div>s (and 2 MB of them) without recursion", () => {
    const deep = `<main>${"<div>".repeat(100_000)}deep text${"</div>".repeat(100_000)}<p>after</p></main>`;
    expect(texts(deep)).toEqual(["deep text", "after"]);
    const flood = extractHtmlPage(`${"<div>".repeat(twoMegabytes / 5 - 10)}x`, "https://a.test/");
    expect(flood.blocks).toEqual([paragraph("x")]);
  });

  it("reads 2 MB of unclosed inline and block tags", () => {
    const count = Math.floor(twoMegabytes / 20) - 1;
    const page = extractHtmlPage("<p>a<b>b<i>c<span>d".repeat(count), "https://a.test/");
    expect(page.blocks.length).toBe(count);
    expect(page.blocks[0]).toEqual(paragraph("abcd"));
  });

  it("skips a 2 MB attribute, and drops the rest of a page whose attribute never closes", () => {
    expect(texts(`<p title="${"a".repeat(twoMegabytes - 100)}">after the attribute</p>`)).toEqual(["after the attribute"]);
    expect(texts(`<p>before</p><p title="${"a".repeat(twoMegabytes)}>never closed`)).toEqual(["before"]);
  });

  it("cuts a 2 MB text run at maxLineChars and says so", () => {
    const page = extractHtmlPage(`<p>${"word ".repeat(twoMegabytes / 5 - 2)}</p>`, "https://a.test/");
    expect(page.truncated).toBe(true);
    expect(page.blocks).toHaveLength(1);
    expect(page.blocks[0]!.text.length).toBeLessThanOrEqual(knowledgeLimits.maxLineChars);
    expect(page.blocks[0]!.text.startsWith("word word")).toBe(true);
  });

  it("never reads markup inside <script>, however many '</div>' it holds", () => {
    const html = `<main><p>keep</p><script>${'var a = "</div></main><p>no</p>";'.repeat(60_000)}</script><p>also keep</p></main><p>outside</p>`;
    expect(texts(html)).toEqual(["keep", "also keep"]);
  });

  it("reads only the first maxPageBytes characters of a longer page", () => {
    const page = extractHtmlPage(`<p>start</p>${" ".repeat(twoMegabytes)}<p>beyond</p>`, "https://a.test/");
    expect(page.blocks).toEqual([paragraph("start")]);
    expect(page.truncated).toBe(true);
  });

  it("stays linear on floods of '<', comments openers, anchors and end tags", () => {
    expect(texts(`<p>${"< ".repeat(twoMegabytes / 4)}</p>`)[0]!.startsWith("< < <")).toBe(true);
    expect(texts(`<p>x</p>${"<!--".repeat(twoMegabytes / 8)}`)).toEqual(["x"]);
    expect(extractHtmlPage(`${'<a href="/a">'.repeat(twoMegabytes / 20)}`, "https://a.test/").links).toEqual(["https://a.test/a"]);
    expect(texts(`<p>y</p>${"</div>".repeat(twoMegabytes / 12)}`)).toEqual(["y"]);
  });
});
