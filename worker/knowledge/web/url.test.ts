import { describe, expect, it } from "vitest";
import { webSources } from "../../../contract";
import { inScope, normalizePageUrl, sameSite } from "./url";

describe("normalizePageUrl", () => {
  it.each([
    ["https://Example.COM", undefined, "https://example.com/"],
    ["http://example.com:80/a", undefined, "http://example.com/a"],
    ["https://example.com:443/a#section", undefined, "https://example.com/a"],
    ["https://example.com:8443/a", undefined, "https://example.com:8443/a"],
    ["https://example.com/p?utm_source=x&id=7&UTM_Medium=y&fbclid=1&gclid=2", undefined, "https://example.com/p?id=7"],
    ["https://example.com/p?utm_source=x", undefined, "https://example.com/p"],
    ["https://example.com/p?", undefined, "https://example.com/p"],
    ["https://example.com/p?b=2&a=1&q=a+b%20c", undefined, "https://example.com/p?b=2&a=1&q=a+b%20c"],
    ["../b?x=1#frag", "https://example.com/docs/a/", "https://example.com/docs/b?x=1"],
    ["  /trimmed  ", "https://example.com/x", "https://example.com/trimmed"],
    ["//cdn.example.com/x", "https://example.com/", "https://cdn.example.com/x"],
  ])("%s (base %s) → %s", (href, base, expected) => {
    expect(normalizePageUrl(href, base)).toBe(expected);
  });

  it.each([
    ["mailto:a@b.test"],
    ["javascript:alert(1)"],
    ["ftp://example.com/x"],
    ["data:text/html,x"],
    ["https://user:pw@example.com/"],
    ["https://user@example.com/"],
    ["not a url"],
    [""],
    [`https://example.com/${"a".repeat(webSources.maxUrlChars)}`],
  ])("refuses %s", (href) => {
    expect(normalizePageUrl(href)).toBeNull();
  });
});

describe("sameSite and inScope", () => {
  it("compares scheme, host and port, counting www. and a trailing dot as the same host", () => {
    expect(sameSite("https://www.example.com/a", "https://example.com/b")).toBe(true);
    expect(sameSite("https://EXAMPLE.com./a", "https://example.com:443/")).toBe(true);
    expect(sameSite("http://example.com/", "https://example.com/")).toBe(false);
    expect(sameSite("https://example.com:8443/", "https://example.com/")).toBe(false);
    expect(sameSite("https://docs.example.com/", "https://example.com/")).toBe(false);
    expect(sameSite("https://example.com.evil.test/", "https://example.com/")).toBe(false);
    expect(sameSite("not a url", "https://example.com/")).toBe(false);
  });

  it("keeps the start page's directory when the start path is not /", () => {
    const start = "https://x.com/docs/";
    expect(inScope("https://x.com/docs/", start)).toBe(true);
    expect(inScope("https://www.x.com/docs/a/b?x=1", start)).toBe(true);
    expect(inScope("https://x.com/docs", start)).toBe(false);
    expect(inScope("https://x.com/blog/", start)).toBe(false);
    expect(inScope("https://x.com/docs-old/", start)).toBe(false);
    expect(inScope("https://x.com/docs/guide", "https://x.com/docs/intro.html")).toBe(true);
    expect(inScope("https://x.com/pricing", "https://x.com/")).toBe(true);
    // No trailing slash: "/help" is a page of the root directory, so the whole site is in scope.
    expect(inScope("https://x.com/pricing", "https://x.com/help")).toBe(true);
    expect(inScope("https://y.com/docs/", start)).toBe(false);
  });
});
