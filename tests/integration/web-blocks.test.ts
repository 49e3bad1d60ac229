import { describe, expect, it } from "vitest";
import { webSources } from "../../contract";
import { chunkBlocks } from "../../worker/knowledge";
import { extractHtmlPage, fetchPage, parseRobots, parseSitemap, resolvePublic } from "../../worker/knowledge/web";

// The crawler's pure blocks inside workerd (the unit tests run them in Node): its streams,
// DecompressionStream, TextDecoder labels, timers and manual redirects. Fetchers are fakes: no
// request leaves the test.

const pageOptions = (fetcher: typeof fetch) => ({
  fetcher,
  allowPrivate: false,
  resolver: async () => ({ ok: true as const, addresses: ["93.184.216.34"] }),
  userAgent: webSources.userAgent,
  timeoutMs: 2_000,
  maxBytes: webSources.maxPageBytes,
  maxRedirects: webSources.maxRedirects,
});

describe("web crawler blocks in workerd", () => {
  it("fetches through a redirect, decodes windows-1252 and reads the main text", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("<title>Caf"), 0xe9, ...new TextEncoder().encode("</title><main><h1>Menu</h1><p>Price: 5"), 0x80, ...new TextEncoder().encode("</p></main>")]);
    const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
      expect(init?.redirect).toBe("manual");
      if (String(input) === "https://cafe.test/") return new Response(null, { status: 301, headers: { location: "/menu" } });
      return new Response(bytes, { headers: { "content-type": "text/html; charset=windows-1252" } });
    }) as typeof fetch;
    const result = await fetchPage("https://cafe.test/", pageOptions(fetcher));
    if (!result.ok || result.status !== 200) throw new Error(`fetch failed: ${JSON.stringify(result)}`);
    expect(result.url).toBe("https://cafe.test/menu");
    const page = extractHtmlPage(result.body, result.url);
    expect(page.title).toBe("Café");
    expect(page.blocks).toEqual([
      { kind: "heading", level: 1, text: "Menu" },
      { kind: "paragraph", text: "Price: 5€" },
    ]);
    expect(chunkBlocks(page.blocks).chunks[0]!.headingPath).toEqual(["Menu"]);
  });

  it("cuts a stream past maxBytes, times out a stalled body and inflates a gzip sitemap", async () => {
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024)),
      cancel: () => void (cancelled = true),
    });
    const big = await fetchPage("https://a.test/big", { ...pageOptions((async () => new Response(endless, { headers: { "content-type": "text/html" } })) as typeof fetch), maxBytes: 256 * 1024 });
    expect(big).toMatchObject({ ok: false, reason: "too-large" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancelled).toBe(true);

    const stalled = new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => undefined) });
    const slow = await fetchPage("https://a.test/slow", { ...pageOptions((async () => new Response(stalled, { headers: { "content-type": "text/html" } })) as typeof fetch), timeoutMs: 100 });
    expect(slow).toMatchObject({ ok: false, reason: "timeout" });

    const xml = "<urlset><url><loc>https://a.test/one</loc></url></urlset>";
    const gz = new Uint8Array(await new Response(new Blob([xml]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
    const sitemap = await fetchPage("https://a.test/sitemap.xml.gz", {
      ...pageOptions((async () => new Response(gz, { headers: { "content-type": "application/gzip" } })) as typeof fetch),
      kinds: "text",
      gzip: true,
    });
    if (!sitemap.ok || sitemap.status !== 200) throw new Error("sitemap failed");
    expect(parseSitemap(sitemap.body, 10).urls).toEqual(["https://a.test/one"]);
    expect(parseRobots("User-agent: *\nDisallow: /private").isAllowed("/private/x")).toBe(false);
  });

  it("refuses a name whose DNS-over-HTTPS answer is private", async () => {
    const doh = (async () => Response.json({ Status: 0, Answer: [{ name: "evil.test", type: 1, data: "127.0.0.1" }] })) as typeof fetch;
    expect(await resolvePublic("evil.test", doh)).toEqual({ ok: false, reason: "not-public" });
  });
});
