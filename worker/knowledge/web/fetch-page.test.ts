import { describe, expect, it } from "vitest";
import { webSourceMessages, webSources } from "../../../contract";
import type { ResolveResult } from "./address";
import { decodeBody, fetchPage, type FetchPageOptions } from "./fetch-page";

const M = webSourceMessages.page;
const encoder = new TextEncoder();

interface Sent {
  url: string;
  redirect: RequestRedirect | undefined;
  headers: Headers;
}

type Route = () => Response | Promise<Response>;

/** A fake fetcher answering from routes by URL; every request is recorded. */
function site(routes: Record<string, Route>) {
  const sent: Sent[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    sent.push({ url, redirect: init?.redirect, headers: new Headers(init?.headers) });
    const route = routes[url];
    if (!route) throw new TypeError(`fetch failed: ${url}`);
    return route();
  }) as typeof fetch;
  return { fetcher, sent };
}

const html = (body: string, headers: Record<string, string> = {}) => () => new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } });
const redirect = (location: string, status = 302) => () => new Response(null, { status, headers: { location } });
const publicResolver = async (): Promise<ResolveResult> => ({ ok: true, addresses: ["93.184.216.34"] });

function options(fetcher: typeof fetch, extra: Partial<FetchPageOptions> = {}): FetchPageOptions {
  return {
    fetcher,
    allowPrivate: false,
    resolver: publicResolver,
    userAgent: webSources.userAgent,
    timeoutMs: 2_000,
    maxBytes: 64 * 1024,
    maxRedirects: 3,
    ...extra,
  };
}

/** A body stream whose source records how it was read and whether it was cancelled. */
function probeStream(next: (pull: number) => Uint8Array | null | "hang") {
  const probe = { pulls: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = next(probe.pulls++);
        if (chunk === "hang") return new Promise<void>(() => undefined);
        if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      },
      cancel() {
        probe.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, probe };
}

describe("fetchPage: a plain page", () => {
  it("fetches with the crawler's headers and manual redirects, and decodes the body", async () => {
    const { fetcher, sent } = site({ "https://a.test/help": html("<p>Hello</p>", { etag: '"v1"', "last-modified": "Mon, 01 Jan 2024 00:00:00 GMT", "x-robots-tag": "noarchive" }) });
    const result = await fetchPage("https://a.test/help#top", options(fetcher));
    expect(result).toEqual({
      ok: true,
      status: 200,
      url: "https://a.test/help",
      contentType: "text/html",
      body: "<p>Hello</p>",
      etag: '"v1"',
      lastModified: "Mon, 01 Jan 2024 00:00:00 GMT",
      truncated: false,
      robotsTag: "noarchive",
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.redirect).toBe("manual");
    expect(sent[0]!.headers.get("user-agent")).toBe(webSources.userAgent);
    expect(sent[0]!.headers.get("accept")).toContain("text/html");
    expect(sent[0]!.headers.has("if-none-match")).toBe(false);
  });

  it("fails an HTTP error status and a network error with their messages", async () => {
    const { fetcher } = site({ "https://a.test/gone": () => new Response("nope", { status: 404 }) });
    expect(await fetchPage("https://a.test/gone", options(fetcher))).toEqual({ ok: false, reason: "http", status: 404, url: "https://a.test/gone", error: M.httpStatus(404) });
    expect(await fetchPage("https://a.test/down", options(fetcher))).toEqual({ ok: false, reason: "unreachable", url: "https://a.test/down", error: M.unreachable });
  });

  it("sends the validators and returns a 304 as unchanged", async () => {
    const { fetcher, sent } = site({ "https://a.test/p": () => new Response(null, { status: 304, headers: { etag: '"v2"' } }) });
    const result = await fetchPage("https://a.test/p", options(fetcher, { etag: '"v1"', lastModified: "Mon, 01 Jan 2024 00:00:00 GMT" }));
    expect(result).toEqual({ ok: true, status: 304, url: "https://a.test/p", etag: '"v2"', lastModified: "Mon, 01 Jan 2024 00:00:00 GMT" });
    expect(sent[0]!.headers.get("if-none-match")).toBe('"v1"');
    expect(sent[0]!.headers.get("if-modified-since")).toBe("Mon, 01 Jan 2024 00:00:00 GMT");
  });
});

describe("fetchPage: redirects", () => {
  it("follows a chain, resolving relative Locations and checking every hop", async () => {
    const { fetcher, sent } = site({
      "http://a.test/start": redirect("https://a.test/start", 301),
      "https://a.test/start": redirect("/docs/", 308),
      "https://a.test/docs/": redirect("intro?x=1", 303),
      "https://a.test/docs/intro?x=1": html("<p>Intro</p>"),
    });
    const checked: string[] = [];
    const resolved: string[] = [];
    const result = await fetchPage(
      "http://a.test/start",
      options(fetcher, {
        allowed: (url) => (checked.push(url), true),
        resolver: async (host) => (resolved.push(host), { ok: true, addresses: ["93.184.216.34"] }),
      }),
    );
    expect(result.ok && result.status === 200 && result.url).toBe("https://a.test/docs/intro?x=1");
    expect(sent.map((s) => s.url)).toEqual(["http://a.test/start", "https://a.test/start", "https://a.test/docs/", "https://a.test/docs/intro?x=1"]);
    expect(checked).toEqual(sent.map((s) => s.url));
    expect(resolved).toEqual(["a.test", "a.test", "a.test", "a.test"]);
  });

  it("stops a loop and a chain longer than maxRedirects", async () => {
    const loop = site({ "https://a.test/a": redirect("/b"), "https://a.test/b": redirect("/a") });
    expect(await fetchPage("https://a.test/a", options(loop.fetcher))).toEqual({
      ok: false,
      reason: "redirects",
      url: "https://a.test/b",
      error: M.tooManyRedirects(3),
    });
    expect(loop.sent).toHaveLength(4);
    const chain = (n: number) => site(Object.fromEntries([...Array.from({ length: n }, (_, i) => [`https://a.test/${i}`, redirect(`/${i + 1}`)]), [`https://a.test/${n}`, html("end")]]));
    expect((await fetchPage("https://a.test/0", options(chain(3).fetcher))).ok).toBe(true);
    expect(await fetchPage("https://a.test/0", options(chain(4).fetcher))).toMatchObject({ ok: false, reason: "redirects" });
  });

  it("refuses a redirect to a private address or a name resolving to one, before requesting it", async () => {
    const { fetcher, sent } = site({
      "https://a.test/meta": redirect("http://169.254.169.254/latest/meta-data/"),
      "https://a.test/loop": redirect("http://0x7f.1:8080/admin"),
      "https://a.test/v6": redirect("http://[::ffff:127.0.0.1]/"),
      "https://a.test/name": redirect("https://internal.a.test/"),
    });
    const resolver = async (host: string): Promise<ResolveResult> => (host === "internal.a.test" ? { ok: false, reason: "not-public" } : { ok: true, addresses: ["93.184.216.34"] });
    for (const start of ["https://a.test/meta", "https://a.test/loop", "https://a.test/v6", "https://a.test/name"]) {
      const result = await fetchPage(start, options(fetcher, { resolver }));
      expect(result).toMatchObject({ ok: false, reason: "not-public", error: M.notPublic });
    }
    expect(sent.map((s) => s.url)).toEqual(["https://a.test/meta", "https://a.test/loop", "https://a.test/v6", "https://a.test/name"]);
    // A name that does not resolve is unreachable.
    const unresolvable = await fetchPage("https://nowhere.test/", options(fetcher, { resolver: async () => ({ ok: false, reason: "unresolvable" }) }));
    expect(unresolvable).toMatchObject({ ok: false, reason: "unreachable" });
  });

  it("refuses a redirect to another scheme, and a start URL with credentials", async () => {
    const { fetcher, sent } = site({ "https://a.test/ftp": redirect("ftp://a.test/file"), "https://a.test/js": redirect("javascript:alert(1)") });
    expect(await fetchPage("https://a.test/ftp", options(fetcher))).toMatchObject({ ok: false, reason: "unreachable", url: "ftp://a.test/file" });
    expect(await fetchPage("https://a.test/js", options(fetcher))).toMatchObject({ ok: false, reason: "unreachable" });
    expect(await fetchPage("https://u:p@a.test/", options(fetcher))).toMatchObject({ ok: false, reason: "unreachable" });
    expect(sent).toHaveLength(2);
  });

  it("refuses a hop robots.txt disallows", async () => {
    const { fetcher, sent } = site({ "https://a.test/open": redirect("/private/x") });
    const result = await fetchPage("https://a.test/open", options(fetcher, { allowed: async (url) => !url.includes("/private/") }));
    expect(result).toEqual({ ok: false, reason: "robots", url: "https://a.test/private/x", error: M.blockedByRobots });
    expect(sent).toHaveLength(1);
  });

  it("with allowPrivate, skips the address checks (local development)", async () => {
    const { fetcher } = site({ "http://localhost:8787/docs": html("<p>local</p>") });
    const resolver = async (): Promise<ResolveResult> => {
      throw new Error("not called");
    };
    expect(await fetchPage("http://localhost:8787/docs", options(fetcher, { resolver }))).toMatchObject({ ok: false, reason: "not-public" });
    expect(await fetchPage("http://localhost:8787/docs", options(fetcher, { resolver, allowPrivate: true }))).toMatchObject({ ok: true, status: 200, body: "<p>local</p>" });
  });
});

describe("fetchPage: size, time and type", () => {
  it("fails a Content-Length over maxBytes before reading the body", async () => {
    const { stream, probe } = probeStream(() => new Uint8Array(1024));
    const { fetcher } = site({ "https://a.test/big": () => new Response(stream, { headers: { "content-type": "text/html", "content-length": String(10 * 1024 * 1024) } }) });
    const result = await fetchPage("https://a.test/big", options(fetcher, { maxBytes: 1024 * 1024 }));
    expect(result).toEqual({ ok: false, reason: "too-large", url: "https://a.test/big", error: M.tooLarge(1) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(probe.pulls).toBe(0);
    expect(probe.cancelled).toBe(true);
  });

  it("stops reading a streamed body as soon as it passes maxBytes, and cancels the reader", async () => {
    const { stream, probe } = probeStream(() => new Uint8Array(16 * 1024).fill(0x61));
    const { fetcher } = site({ "https://a.test/endless": () => new Response(stream, { headers: { "content-type": "text/html" } }) });
    const result = await fetchPage("https://a.test/endless", options(fetcher, { maxBytes: 100 * 1024 }));
    expect(result).toMatchObject({ ok: false, reason: "too-large" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(probe.cancelled).toBe(true);
    expect(probe.pulls).toBeLessThanOrEqual(8);
  });

  it("keeps the first maxBytes when asked to truncate (robots.txt, sitemaps)", async () => {
    const { fetcher } = site({ "https://a.test/robots.txt": () => new Response("x".repeat(3000), { headers: { "content-type": "text/plain", "content-length": "3000" } }) });
    const result = await fetchPage("https://a.test/robots.txt", options(fetcher, { kinds: "text", maxBytes: 1000, overflow: "truncate" }));
    expect(result).toMatchObject({ ok: true, status: 200, truncated: true });
    expect(result.ok && result.status === 200 && result.body.length).toBe(1000);
  });

  it("times out a body that never ends, cancelling it, with one deadline for headers and body", async () => {
    const { stream, probe } = probeStream((pull) => (pull === 0 ? encoder.encode("<p>start") : "hang"));
    const { fetcher } = site({ "https://a.test/slow": () => new Response(stream, { headers: { "content-type": "text/html" } }) });
    const started = Date.now();
    const result = await fetchPage("https://a.test/slow", options(fetcher, { timeoutMs: 100 }));
    expect(result).toEqual({ ok: false, reason: "timeout", url: "https://a.test/slow", error: M.timeout(1) });
    expect(Date.now() - started).toBeLessThan(1_500);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(probe.cancelled).toBe(true);
    // Headers that never come time out too.
    const never = site({ "https://a.test/never": () => new Promise<Response>(() => undefined) });
    expect(await fetchPage("https://a.test/never", options(never.fetcher, { timeoutMs: 50 }))).toMatchObject({ ok: false, reason: "timeout" });
  });

  it("accepts only page types for pages, and text or XML for robots.txt and sitemaps", async () => {
    // A byte body (a string one would get text/plain from Response itself).
    const typed = (type: string | null) => () => new Response(encoder.encode("x"), { headers: type === null ? {} : { "content-type": type } });
    const { fetcher } = site({
      "https://a.test/pdf": typed("application/pdf"),
      "https://a.test/xhtml": typed("application/xhtml+xml"),
      "https://a.test/txt": typed("text/plain; charset=utf-8"),
      "https://a.test/none": typed(null),
      "https://a.test/xml": typed("application/rss+xml"),
    });
    expect(await fetchPage("https://a.test/pdf", options(fetcher))).toEqual({ ok: false, reason: "not-html", url: "https://a.test/pdf", error: M.notHtml("application/pdf") });
    expect((await fetchPage("https://a.test/xhtml", options(fetcher))).ok).toBe(true);
    expect((await fetchPage("https://a.test/txt", options(fetcher))).ok).toBe(true);
    const untyped = await fetchPage("https://a.test/none", options(fetcher));
    expect(untyped).toMatchObject({ ok: false, reason: "not-html", error: M.notHtml("") });
    expect((await fetchPage("https://a.test/none", options(fetcher, { kinds: "text" }))).ok).toBe(true);
    expect((await fetchPage("https://a.test/xml", options(fetcher, { kinds: "text" }))).ok).toBe(true);
    expect((await fetchPage("https://a.test/pdf", options(fetcher, { kinds: "text" }))).ok).toBe(false);
  });
});

describe("fetchPage: decoding", () => {
  it("decodes windows-1252 from the Content-Type charset, 0x80–0x9F included", async () => {
    const bytes = new Uint8Array([0x93, 0x48, 0x69, 0x94, 0x20, 0x80, 0x35, 0x20, 0xe9, 0x74, 0xe9]);
    const { fetcher } = site({ "https://a.test/legacy": () => new Response(bytes, { headers: { "content-type": "text/html; charset=windows-1252" } }) });
    expect(await fetchPage("https://a.test/legacy", options(fetcher))).toMatchObject({ ok: true, body: "\u201cHi\u201d €5 été" });
  });

  it("sniffs a <meta charset> in the first 1,024 bytes of HTML; a BOM wins; unknown labels read as UTF-8", () => {
    const latin = new Uint8Array([...encoder.encode('<meta charset="iso-8859-1"><p>'), 0xe9, 0x96]);
    expect(decodeBody(latin, "text/html", true)).toBe('<meta charset="iso-8859-1"><p>é–');
    const equiv = new Uint8Array([...encoder.encode('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">'), 0x80]);
    expect(decodeBody(equiv, "text/html", true).endsWith("€")).toBe(true);
    const late = new Uint8Array([...encoder.encode(`${" ".repeat(1100)}<meta charset="windows-1252">`), 0xe9]);
    expect(decodeBody(late, "text/html", true).endsWith("\ufffd")).toBe(true);
    expect(decodeBody(new Uint8Array([0xef, 0xbb, 0xbf, 0xc3, 0xa9]), "text/html; charset=windows-1252", true)).toBe("é");
    expect(decodeBody(new Uint8Array([0xc3, 0xa9]), "text/html; charset=no-such-thing", true)).toBe("é");
    expect(decodeBody(new Uint8Array([0xff, 0x41]), "text/plain", false)).toBe("\ufffdA");
  });

  it("inflates a gzip sitemap, and refuses one that inflates past maxBytes", async () => {
    const gzip = async (bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
    const xml = '<urlset><url><loc>https://a.test/</loc></url></urlset>';
    const small = await gzip(encoder.encode(xml));
    const bomb = await gzip(new Uint8Array(20 * 1024 * 1024));
    const { fetcher } = site({
      "https://a.test/sitemap.xml.gz": () => new Response(small, { headers: { "content-type": "application/x-gzip" } }),
      "https://a.test/bomb.xml.gz": () => new Response(bomb, { headers: { "content-type": "application/octet-stream" } }),
    });
    expect(await fetchPage("https://a.test/sitemap.xml.gz", options(fetcher, { kinds: "text", gzip: true }))).toMatchObject({ ok: true, body: xml, contentType: "application/xml" });
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    expect(await fetchPage("https://a.test/bomb.xml.gz", options(fetcher, { kinds: "text", gzip: true, maxBytes: 1024 * 1024 }))).toMatchObject({ ok: false, reason: "too-large" });
    const cut = await fetchPage("https://a.test/bomb.xml.gz", options(fetcher, { kinds: "text", gzip: true, maxBytes: 1024 * 1024, overflow: "truncate" }));
    expect(cut.ok && cut.status === 200 && cut.body.length).toBe(1024 * 1024);
    // Without the gzip option a gzip body is not text.
    expect(await fetchPage("https://a.test/sitemap.xml.gz", options(fetcher, { kinds: "text" }))).toMatchObject({ ok: false, reason: "not-html" });
  });
});
