import { describe, expect, it } from "vitest";
import { webSources } from "../../../contract";
import { parseSitemap } from "./sitemap";

describe("parseSitemap", () => {
  it("reads the <loc> of each <url> of a urlset, entities decoded, trimmed, normalised", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://a.test/</loc><lastmod>2024-01-01</lastmod></url>
  <url>
    <loc>
      https://a.test/search?q=shoes&amp;page=2&amp;utm_source=sitemap
    </loc>
    <image:image><image:loc>https://a.test/img/shoe.jpg</image:loc></image:image>
  </url>
  <url><loc><![CDATA[https://a.test/a&b]]></loc></url>
  <!-- <url><loc>https://a.test/commented</loc></url> -->
  <url><loc>https://a.test/</loc></url>
  <url><loc>ftp://a.test/file</loc></url>
  <url><loc>/relative</loc></url>
  <url><loc>javascript:alert(1)</loc></url>
</urlset>`;
    expect(parseSitemap(xml, 100)).toEqual({
      urls: ["https://a.test/", "https://a.test/search?q=shoes&page=2", "https://a.test/a&b"],
      sitemaps: [],
    });
  });

  it("reads the <sitemap> entries of a sitemap index, with a namespace prefix too", () => {
    const xml = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sm:sitemap><sm:loc>https://a.test/sitemap-pages.xml</sm:loc></sm:sitemap>
  <sm:sitemap><sm:loc>https://a.test/sitemap-posts.xml.gz</sm:loc><sm:lastmod>2024-01-01</sm:lastmod></sm:sitemap>
</sm:sitemapindex>`;
    expect(parseSitemap(xml, 100)).toEqual({ urls: [], sitemaps: ["https://a.test/sitemap-pages.xml", "https://a.test/sitemap-posts.xml.gz"] });
  });

  it("stops at the limit and caps nested sitemaps at maxSitemapFiles", () => {
    const urls = Array.from({ length: 500 }, (_, i) => `<url><loc>https://a.test/p${i}</loc></url>`).join("");
    const result = parseSitemap(`<urlset>${urls}</urlset>`, 10);
    expect(result.urls).toHaveLength(10);
    expect(result.urls[9]).toBe("https://a.test/p9");
    const index = Array.from({ length: 50 }, (_, i) => `<sitemap><loc>https://a.test/s${i}.xml</loc></sitemap>`).join("");
    expect(parseSitemap(`<sitemapindex>${index}</sitemapindex>`, 10).sitemaps).toHaveLength(webSources.maxSitemapFiles);
  });

  it("reads a plain-text sitemap, one URL a line", () => {
    expect(parseSitemap("https://a.test/one\r\n\nnot a url\nhttps://a.test/two#x\n", 10)).toEqual({ urls: ["https://a.test/one", "https://a.test/two"], sitemaps: [] });
  });

  it("yields what junk holds and never throws", () => {
    expect(parseSitemap("", 10)).toEqual({ urls: [], sitemaps: [] });
    expect(parseSitemap("<html><body><p>Not a sitemap</p></body></html>", 10)).toEqual({ urls: [], sitemaps: [] });
    expect(parseSitemap("<urlset><url><loc>https://a.test/x", 10)).toEqual({ urls: [], sitemaps: [] });
    expect(parseSitemap("<urlset><url><loc>https://a.test/ok</loc><loc>https://a.test/second</loc></url><url><loc>https://a.test/cut</url>", 10).urls).toEqual([
      "https://a.test/ok",
      "https://a.test/second",
    ]);
    // A loc longer than a URL can be is dropped, and its text is not kept.
    expect(parseSitemap(`<urlset><url><loc>https://a.test/${"a".repeat(100_000)}</loc></url><url><loc>https://a.test/b</loc></url></urlset>`, 10).urls).toEqual(["https://a.test/b"]);
  });

  it("reads at most maxSitemapBytes characters, with one linear scan", () => {
    const entry = "<url><loc>https://a.test/p</loc></url>";
    const huge = `<urlset>${"<".repeat(webSources.maxSitemapBytes / 2)}${"<url><loc>".repeat(200_000)}</urlset>`;
    expect(parseSitemap(huge, 10)).toEqual({ urls: [], sitemaps: [] });
    const beyond = `<urlset>${" ".repeat(webSources.maxSitemapBytes)}${entry}</urlset>`;
    expect(parseSitemap(beyond, 10).urls).toEqual([]);
  });
});
