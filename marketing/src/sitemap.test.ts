import { describe, expect, it } from "vitest";
import { absoluteUrl, buildRobots, buildSitemap } from "./sitemap";

describe("absoluteUrl", () => {
  it("joins an origin, with or without a trailing slash, and a path", () => {
    expect(absoluteUrl("https://tala.example", "/")).toBe("https://tala.example/");
    expect(absoluteUrl("https://tala.example/", "/faq")).toBe("https://tala.example/faq");
    expect(absoluteUrl("https://example.com/tala/", "blog/3")).toBe("https://example.com/tala/blog/3");
  });
});

describe("buildSitemap", () => {
  it("lists each path once, with lastmod when known, escaped", () => {
    const xml = buildSitemap("https://tala.example", [
      { path: "/" },
      { path: "/ai-morocco", lastmod: "2026-09-15" },
      { path: "/ai-morocco", lastmod: "2026-09-15" },
      { path: "/search?a=1&b=2" },
    ]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(xml).toContain("<url><loc>https://tala.example/</loc></url>");
    expect(xml).toContain("<url><loc>https://tala.example/ai-morocco</loc><lastmod>2026-09-15</lastmod></url>");
    expect(xml.match(/ai-morocco/g)).toHaveLength(1);
    expect(xml).toContain("a=1&amp;b=2");
  });
});

describe("buildRobots", () => {
  it("allows the site, disallows the given paths, and names the sitemap", () => {
    const txt = buildRobots("https://tala.example/", ["/app", "/api/"]);
    expect(txt).toContain("User-agent: *\nAllow: /\nDisallow: /app\nDisallow: /api/\n");
    expect(txt).toContain("Sitemap: https://tala.example/sitemap.xml");
  });
});
