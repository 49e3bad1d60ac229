import { describe, expect, it } from "vitest";
import { webSources } from "../../../contract";
import { parseRobots, robotsForStatus, robotsFromFetch } from "./robots";

/** RFC 9309 §5.1. */
const rfcExample = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF`;

describe("parseRobots: groups", () => {
  it("applies the RFC 9309 example to each crawler", () => {
    const star = parseRobots(rfcExample, "TalaBot");
    expect(star.isAllowed("/example/page.html")).toBe(false);
    expect(star.isAllowed("/publications/a.html")).toBe(true);
    expect(star.isAllowed("/images/cat.gif")).toBe(false);
    expect(star.isAllowed("/images/cat.gif?size=2")).toBe(true);
    expect(star.isAllowed("/other")).toBe(true);

    const foobot = parseRobots(rfcExample, "FooBot");
    expect(foobot.isAllowed("/")).toBe(false);
    expect(foobot.isAllowed("/example/page.html")).toBe(true);
    expect(foobot.isAllowed("/example/allowed.gif")).toBe(true);
    expect(foobot.isAllowed("/example/other.gif")).toBe(false);

    for (const bot of ["barbot", "BAZBOT"]) {
      const robots = parseRobots(rfcExample, bot);
      expect(robots.isAllowed("/example/page.html")).toBe(false);
      expect(robots.isAllowed("/example/")).toBe(true);
    }
    // quxbot's group is empty: everything is allowed (the * group does not apply).
    expect(parseRobots(rfcExample, "quxbot").isAllowed("/example/page.html")).toBe(true);
  });

  it("matches the product token case-insensitively by its first word, and combines its groups", () => {
    const text = "User-agent: talabot/1.0\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: TalaBot\nDisallow: /b\nCrawl-delay: 3";
    const robots = parseRobots(text, "TalaBot");
    expect([robots.isAllowed("/a"), robots.isAllowed("/b"), robots.isAllowed("/c")]).toEqual([false, false, true]);
    expect(robots.crawlDelayMs).toBe(3000);
    // The UA string's first word is the product token.
    expect(parseRobots(text, webSources.userAgent.split("/")[0]).isAllowed("/c")).toBe(true);
    expect(parseRobots("User-agent: TalaBotX\nDisallow: /\n", "TalaBot").isAllowed("/x")).toBe(true);
  });

  it("allows everything without a matching group, and ignores rules before any user-agent and unknown lines", () => {
    expect(parseRobots("Disallow: /\nUser-agent: otherbot\nDisallow: /\n").isAllowed("/x")).toBe(true);
    expect(parseRobots("").isAllowed("/x")).toBe(true);
    expect(parseRobots("User-agent: *\nNoindex: /x\nDisallow: /y # comment\nfoo\n").isAllowed("/x")).toBe(true);
    expect(parseRobots("\ufeffUser-agent: *\r\nDisallow: /y\r\n").isAllowed("/y")).toBe(false);
    expect(parseRobots("User-agent: *\nDisallow:\n").isAllowed("/anything")).toBe(true);
  });
});

describe("parseRobots: matching", () => {
  it("lets the longest match win and Allow win a tie (RFC 9309 §2.2.2, §5.2)", () => {
    const robots = parseRobots("User-agent: *\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\nAllow: /tie\nDisallow: /tie\nAllow: /$\nDisallow: /");
    expect(robots.isAllowed("/example/page/")).toBe(true);
    expect(robots.isAllowed("/example/page/disallowed.gif")).toBe(false);
    expect(robots.isAllowed("/tie")).toBe(true);
    expect(robots.isAllowed("/")).toBe(true);
    expect(robots.isAllowed("/page")).toBe(false);
    // The order of the lines does not matter.
    const reversed = parseRobots("User-agent: *\nDisallow: /tie\nAllow: /tie\nDisallow: /example/page/disallowed.gif\nAllow: /example/page/");
    expect(reversed.isAllowed("/tie")).toBe(true);
    expect(reversed.isAllowed("/example/page/disallowed.gif")).toBe(false);
  });

  it("matches * and $ wildcards", () => {
    const robots = parseRobots("User-agent: *\nDisallow: /fish*.php\nDisallow: /*.pdf$\nDisallow: /a*b*c$\nDisallow: /x$y");
    expect(robots.isAllowed("/fish.php")).toBe(false);
    expect(robots.isAllowed("/fishheads/catfish.php?parameters")).toBe(false);
    expect(robots.isAllowed("/Fish.PHP")).toBe(true);
    expect(robots.isAllowed("/docs/guide.pdf")).toBe(false);
    expect(robots.isAllowed("/docs/guide.pdf?download=1")).toBe(true);
    expect(robots.isAllowed("/docs/guide.pdf/")).toBe(true);
    expect(robots.isAllowed("/a-b-c")).toBe(false);
    expect(robots.isAllowed("/a-c-b")).toBe(true);
    expect(robots.isAllowed("/abcbc")).toBe(false);
    // An anchored last piece may not overlap the pieces before it.
    const overlap = parseRobots("User-agent: *\nDisallow: /*x*yx$");
    expect(overlap.isAllowed("/ayx")).toBe(true);
    expect(overlap.isAllowed("/xayx")).toBe(false);
    // "$" before the end is a literal character.
    expect(robots.isAllowed("/x$y")).toBe(false);
    expect(robots.isAllowed("/x")).toBe(true);
  });

  it("compares percent-encoding-normalised patterns and paths (RFC 9309 §2.2.2 table)", () => {
    const robots = parseRobots("User-agent: *\nDisallow: /foo/bar/ツ\nDisallow: /foo/%62%61%7A\nDisallow: /q/%2f\nDisallow: /space here");
    expect(robots.isAllowed("/foo/bar/%E3%83%84")).toBe(false);
    expect(robots.isAllowed("/foo/bar/%e3%83%84")).toBe(false);
    expect(robots.isAllowed("/foo/baz")).toBe(false);
    expect(robots.isAllowed("/q/%2F")).toBe(false);
    expect(robots.isAllowed("/q/")).toBe(true);
    expect(robots.isAllowed("/space%20here")).toBe(false);
  });

  it("always allows /robots.txt", () => {
    const robots = parseRobots("User-agent: *\nDisallow: /");
    expect(robots.isAllowed("/robots.txt")).toBe(true);
    expect(robots.isAllowed("/robots.txt?x=1")).toBe(true);
    expect(robots.isAllowed("/robots.txt.bak")).toBe(false);
  });

  it("stays linear on a pathological pattern against a long path, and on thousands of them", () => {
    const path = `/${"a".repeat(webSources.maxUrlChars - 2)}`;
    const one = parseRobots("User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n");
    expect(one.isAllowed(path)).toBe(true);
    expect(one.isAllowed(`${path.slice(0, 100)}b`)).toBe(false);
    const many = parseRobots(`User-agent: *\n${"Disallow: /*a*a*a*a*a*a*a*a*b\n".repeat(10_000)}`);
    expect(many.isAllowed(path)).toBe(true);
  });
});

describe("parseRobots: crawl-delay, sitemaps, size", () => {
  it("reads Crawl-delay in seconds (fractions too) of the chosen group, ignoring junk", () => {
    expect(parseRobots("User-agent: *\nCrawl-delay: 2.5").crawlDelayMs).toBe(2500);
    expect(parseRobots("User-agent: *\nCrawl-delay: soon").crawlDelayMs).toBeNull();
    expect(parseRobots("User-agent: *\nCrawl-delay: -1").crawlDelayMs).toBeNull();
    expect(parseRobots("User-agent: otherbot\nCrawl-delay: 9").crawlDelayMs).toBeNull();
  });

  it("collects absolute http(s) sitemaps from anywhere in the file, deduplicated and capped", () => {
    const text = "Sitemap: https://a.test/sitemap.xml\nUser-agent: *\nSitemap: /relative.xml\nsitemap: https://a.test/sitemap.xml\nSITEMAP: ftp://a.test/x\nSitemap: http://a.test/news.xml.gz";
    expect(parseRobots(text).sitemaps).toEqual(["https://a.test/sitemap.xml", "http://a.test/news.xml.gz"]);
    const lots = Array.from({ length: 100 }, (_, i) => `Sitemap: https://a.test/s${i}.xml`).join("\n");
    expect(parseRobots(lots).sitemaps).toHaveLength(webSources.maxSitemapFiles);
  });

  it("reads only the first maxRobotsBytes characters", () => {
    const text = `User-agent: *\n${"#".repeat(webSources.maxRobotsBytes)}\nDisallow: /`;
    expect(parseRobots(text).isAllowed("/x")).toBe(true);
  });
});

describe("robotsForStatus and robotsFromFetch (RFC 9309 §2.3.1)", () => {
  it("4xx allows everything, 5xx and unreachable disallow everything, 2xx means read the body", () => {
    expect(robotsForStatus(200)).toBeNull();
    expect(robotsForStatus(404)!.isAllowed("/x")).toBe(true);
    expect(robotsForStatus(403)!.isAllowed("/x")).toBe(true);
    expect(robotsForStatus(429)!.isAllowed("/x")).toBe(false);
    expect(robotsForStatus(500)!.isAllowed("/x")).toBe(false);
    expect(robotsForStatus(503)!.isAllowed("/x")).toBe(false);
    expect(robotsForStatus("unreachable")!.isAllowed("/x")).toBe(false);
    expect(robotsForStatus("unreachable")!.isAllowed("/robots.txt")).toBe(true);
  });

  it("maps a fetch result to rules", () => {
    const ok = { ok: true as const, status: 200 as const, url: "https://a.test/robots.txt", contentType: "text/plain", body: "User-agent: *\nDisallow: /private", etag: null, lastModified: null };
    expect(robotsFromFetch(ok).isAllowed("/private/x")).toBe(false);
    const failed = (reason: "http" | "timeout" | "unreachable" | "not-public" | "redirects", status?: number) => ({ ok: false as const, reason, status, url: "https://a.test/robots.txt", error: "" });
    expect(robotsFromFetch(failed("http", 404)).isAllowed("/x")).toBe(true);
    expect(robotsFromFetch(failed("http", 502)).isAllowed("/x")).toBe(false);
    expect(robotsFromFetch(failed("timeout")).isAllowed("/x")).toBe(false);
    expect(robotsFromFetch(failed("unreachable")).isAllowed("/x")).toBe(false);
    expect(robotsFromFetch(failed("not-public")).isAllowed("/x")).toBe(false);
    expect(robotsFromFetch(failed("redirects")).isAllowed("/x")).toBe(true);
  });
});
