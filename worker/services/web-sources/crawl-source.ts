import { webSourceMessages, webSources, type WebSource } from "../../../contract";
import { hubWebSources, type HubWebSources } from "../../assistant/hub-web-sources";
import type { CrawlPage, RemovedFile } from "../../assistant/web-source-store";
import { isLocal, type Env } from "../../env";
import { ingestBlocks, type Block } from "../../knowledge";
import {
  extractHtmlPage,
  fetchPage,
  inScope,
  normalizePageUrl,
  parseSitemap,
  resolvePublic,
  robotsDirectives,
  robotsFromFetch,
  type FetchPageOptions,
  type ResolveResult,
  type Robots,
} from "../../knowledge/web";
import { knowledgeIndex, knowledgeStores } from "../public-assistants/knowledge-stores";
import { enqueueCrawl, type CrawlQueueMessage } from "./enqueue-crawl";

/**
 * One run of a website source's sync, in the `tala-ingest` queue consumer (never in a request,
 * never in the assistant's object: fetching and extracting pages costs time and CPU that visitor
 * turns must not wait behind). The assistant's object keeps the crawl's state and hands out the
 * pages one at a time (assistant/web-source-store.ts); a run fetches at most
 * `webSources.pagesPerRun` of them, spaced by `requestSpacingMs` (or the site's Crawl-delay, up
 * to `maxCrawlDelayMs`), then queues the next run, so each run is bounded in time.
 *
 * A site's first run reads its robots.txt and sitemap(s) (robots.txt `Sitemap:` lines, else
 * /sitemap.xml): the sitemap's pages in scope are the site, up to the page limit; without one,
 * same-site links are followed from the start page. Every request says it is Tala (User-Agent),
 * obeys robots.txt, and is bounded in size and time (knowledge/web/fetch-page.ts); in production
 * only public addresses are fetched (every redirect checked), locally loopback is allowed so the
 * tests can crawl a site they serve.
 *
 * Unchanged pages are skipped: a conditional request (ETag / Last-Modified) when the site is read
 * from its sitemap or is one page, and always the SHA-256 of the extracted text, so a page whose
 * text did not change is not indexed again. Pages a sync did not find leave the index at its end.
 */
export async function crawlSource(env: Env, run: Omit<CrawlQueueMessage, "kind"> & { followLinks?: boolean }): Promise<"done" | "continued" | "stale"> {
  const hub = hubWebSources(env, run.assistantId);
  const { sourceId, syncId } = run;
  const started = await hub.runStart(sourceId, syncId, Date.now());
  if (!started) return "stale";
  const { source, fresh } = started;
  const crawler = new Crawler(env, hub, run.assistantId, source, syncId);
  try {
    const robots = await crawler.robots();
    let followLinks = run.followLinks ?? source.scope === "site";
    if (fresh && source.scope === "site") {
      const listed = await crawler.sitemapPages(robots);
      if (listed.length) {
        await hub.addPages(sourceId, syncId, listed, Date.now());
        followLinks = false;
      }
    }
    for (let i = 0; i < webSources.pagesPerRun; i++) {
      const page = await hub.next(sourceId, syncId, Date.now());
      if (!page) break;
      await crawler.page(page, robots, followLinks);
      await sleep(crawler.spacingMs(robots));
    }
    const finished = await hub.finish(sourceId, syncId, Date.now());
    if (finished) {
      await crawler.dropVectors(finished);
      return "done";
    }
    // Pages are left (or the sync went stale meanwhile: the next run sees it and stops).
    await hub.runEnd(sourceId, syncId, Date.now());
    await enqueueCrawl(env, [{ assistantId: run.assistantId, sourceId, syncId, ...(followLinks ? {} : { followLinks }) }], Math.ceil(crawler.spacingMs(robots) / 1000));
    return "continued";
  } catch (error) {
    // The object did not answer (or a bug): release the source so the retried message can run.
    await hub.runEnd(sourceId, syncId, Date.now()).catch(() => undefined);
    throw error;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Failures that say nothing about the page itself: its indexed text stays until a sync reads it. */
const passing = (reason: string, status?: number) => reason === "timeout" || reason === "unreachable" || (reason === "http" && (status === 429 || (status ?? 0) >= 500));

class Crawler {
  private readonly site: URL;
  private readonly stores: ReturnType<typeof knowledgeStores>;

  constructor(
    private readonly env: Env,
    private readonly hub: HubWebSources,
    private readonly assistantId: string,
    private readonly source: WebSource,
    private readonly syncId: string,
  ) {
    this.site = new URL(source.url);
    this.stores = knowledgeStores(env);
  }

  /** Each host is resolved once a run (every hop of every request is still checked against the answer). */
  private readonly resolved = new Map<string, Promise<ResolveResult>>();

  private options(extra: Partial<FetchPageOptions>): FetchPageOptions {
    const fetcher: typeof fetch = (input, init) => fetch(input, init);
    const allowPrivate = isLocal(this.env);
    const resolver = (host: string) => {
      let answer = this.resolved.get(host);
      if (!answer) this.resolved.set(host, (answer = resolvePublic(host, fetcher)));
      return answer;
    };
    return {
      fetcher,
      allowPrivate,
      ...(allowPrivate ? {} : { resolver }),
      userAgent: webSources.userAgent,
      timeoutMs: webSources.fetchTimeoutMs,
      maxBytes: webSources.maxPageBytes,
      maxRedirects: webSources.maxRedirects,
      ...extra,
    };
  }

  /** The site's robots.txt (RFC 9309: 4xx allows everything, 5xx or no answer disallows everything). */
  async robots(): Promise<Robots> {
    const url = new URL("/robots.txt", this.site).href;
    return robotsFromFetch(await fetchPage(url, this.options({ kinds: "text", overflow: "truncate", maxBytes: webSources.maxRobotsBytes })));
  }

  spacingMs(robots: Robots): number {
    const floor = isLocal(this.env) && this.env.CRAWL_SPACING_MS ? Number(this.env.CRAWL_SPACING_MS) : webSources.requestSpacingMs;
    return Math.min(Math.max(robots.crawlDelayMs ?? 0, floor), webSources.maxCrawlDelayMs);
  }

  /** The pages the site's sitemaps list in the source's scope (sitemap indexes followed up to `maxSitemapFiles`). */
  async sitemapPages(robots: Robots): Promise<string[]> {
    const queue = robots.sitemaps.length ? [...robots.sitemaps] : [new URL("/sitemap.xml", this.site).href];
    const pages = new Set<string>();
    for (let read = 0; queue.length && read < webSources.maxSitemapFiles && pages.size < this.source.maxPages; read++) {
      const url = queue.shift()!;
      if (read > 0) await sleep(this.spacingMs(robots));
      const res = await fetchPage(
        url,
        this.options({ kinds: "text", gzip: true, maxBytes: webSources.maxSitemapBytes, allowed: (u) => this.onSite(u) && robots.isAllowed(pathOf(u)) }),
      );
      if (!res.ok || res.status !== 200) continue;
      const { urls, sitemaps } = parseSitemap(res.body, this.source.maxPages * 4);
      for (const u of urls) {
        const page = normalizePageUrl(u);
        if (page && inScope(page, this.source.url) && pages.size < this.source.maxPages) pages.add(page);
      }
      queue.push(...sitemaps);
    }
    return [...pages];
  }

  /** Fetch, read and index one page, telling the assistant's object what happened. */
  async page(page: CrawlPage, robots: Robots, followLinks: boolean): Promise<void> {
    const now = Date.now();
    const P = webSourceMessages.page;
    let offSite = false;
    const conditional = !followLinks && page.indexed;
    const res = await fetchPage(
      page.url,
      this.options({
        kinds: "page",
        etag: conditional ? page.etag : null,
        lastModified: conditional ? page.lastModified : null,
        allowed: (u) => {
          if (!this.onSite(u)) return !(offSite = true);
          return robots.isAllowed(pathOf(u));
        },
      }),
    );
    if (!res.ok) {
      const error = res.reason === "robots" && offSite ? P.redirectOffSite : res.error;
      return this.failed(page, error, passing(res.reason, res.status));
    }
    if (res.status === 304) return this.hub.pageUnchanged(page.id, this.syncId, res, now).then(() => undefined);

    const isHtml = res.contentType !== "text/plain";
    const read = isHtml ? extractHtmlPage(res.body, res.url) : plainTextPage(res.body, res.url);
    const header = robotsDirectives(res.robotsTag ?? "");
    if (read.noindex || header.noindex) return this.failed(page, P.noindex, false);
    if (header.nofollow) read.nofollow = true;
    if (followLinks && !read.nofollow && this.source.scope === "site") {
      const links = read.links.map((l) => normalizePageUrl(l)).filter((l): l is string => l !== null && inScope(l, this.source.url));
      if (links.length) await this.hub.addPages(this.source._id, this.syncId, links, now);
    }
    const text = read.blocks.map((b) => b.text).join("\n");
    if (!text.trim()) return this.failed(page, P.noText, false);

    const hash = await sha256(text);
    const fetched = await this.hub.pageFetched(
      { pageId: page.id, syncId: this.syncId, hash, title: read.title.slice(0, webSources.maxTitleChars), url: res.url, size: text.length, etag: res.etag, lastModified: res.lastModified, duplicateError: P.duplicate },
      now,
    );
    if (!fetched || fetched.action === "unchanged") return;
    if (fetched.action === "duplicate") return this.dropVectors(fetched.removed);

    const { embedder, vectors } = this.stores;
    const indexed = await ingestBlocks({
      index: knowledgeIndex(this.env, this.assistantId),
      assistantId: this.assistantId,
      fileId: fetched.fileId,
      name: read.title || page.url,
      blocks: read.blocks,
      truncated: read.truncated,
      embedder,
      vectors,
    });
    if (indexed.ok) await this.hub.pageIndexed(page.id, this.syncId, hash, indexed.chunkCount, Date.now());
    else await this.failed(page, indexed.error.reason === "no_text" ? P.noText : P.indexFailed, false);
  }

  private async failed(page: CrawlPage, error: string, keep: boolean) {
    const removed = await this.hub.pageFailed(page.id, this.syncId, error, keep, Date.now());
    if (removed) await this.dropVectors(removed);
  }

  /** The vectors of files the object removed (their chunks are gone already; a stale vector is ignored by search, so failures are only logged). */
  async dropVectors(files: readonly RemovedFile[]) {
    for (const file of files) {
      try {
        await this.stores.vectors.deleteByFile(this.assistantId, file.fileId, file.chunkIds);
      } catch (error) {
        console.error(JSON.stringify({ event: "web-page-vectors-not-deleted", fileId: file.fileId, error: String(error) }));
      }
    }
  }

  /** Same site as the source (scheme may change, "www." is the same host). */
  private onSite(url: string): boolean {
    try {
      const host = (h: string) => h.replace(/^www\./, "");
      const u = new URL(url);
      return host(u.hostname) === host(this.site.hostname) && (u.port || "") === (this.site.port || "");
    } catch {
      return false;
    }
  }
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** A text/plain page: blank-line paragraphs (lines read one at a time, no regex over the body), titled by its address. */
function plainTextPage(body: string, url: string) {
  const blocks: Block[] = [];
  let lines: string[] = [];
  const flush = () => {
    const text = lines.join(" ").trim();
    if (text) blocks.push({ kind: "paragraph", text });
    lines = [];
  };
  let start = 0;
  while (start <= body.length && blocks.length < PLAIN_TEXT_MAX_BLOCKS) {
    const end = body.indexOf("\n", start);
    const line = body.slice(start, end === -1 ? body.length : end).trim();
    if (line) lines.push(line);
    else flush();
    if (end === -1) break;
    start = end + 1;
  }
  flush();
  return { title: url, blocks, links: [] as string[], noindex: false, nofollow: true, truncated: blocks.length >= PLAIN_TEXT_MAX_BLOCKS };
}
const PLAIN_TEXT_MAX_BLOCKS = 20_000;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
