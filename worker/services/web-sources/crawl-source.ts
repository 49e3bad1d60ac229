import { webSourceMessages, webSources, type WebSource } from "../../../contract";
import { hubWebSources, type HubWebSources } from "../../assistant/hub-web-sources";
import type { CrawlPage, RemovedFile } from "../../assistant/web-source-store";
import { isLocal, type Env } from "../../env";
import { ingestBlocks, type Block } from "../../knowledge";
import {
  parseRobots,
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
import { dropPageVectors } from "./drop-page-vectors";
import type { CrawlQueueMessage } from "../../queues/messages";
import { enqueueCrawl } from "./enqueue-crawl";

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
export async function crawlSource(env: Env, run: Omit<CrawlQueueMessage, "kind">): Promise<"done" | "continued" | "stale" | "abandoned"> {
  const hub = hubWebSources(env, run.assistantId);
  const { sourceId, syncId } = run;
  const started = await hub.runStart(sourceId, syncId, Date.now());
  if (!started || started.run === "stale") return "stale";
  // Another run holds the source (a redelivered message): try again once its lease may be over.
  if (started.run === "busy") throw new CrawlBusy();
  const { source } = started;
  const crawler = new Crawler(env, hub, run.assistantId, source, syncId);
  const startedAt = Date.now();
  try {
    let robotsText = started.robots;
    let followLinks = started.followLinks;
    if (robotsText === null) {
      // The sync's first run: robots.txt (kept for the sync's later runs), then the sitemap.
      const read = await crawler.robotsText();
      if (!read.ok) {
        await hub.abandon(sourceId, syncId, read.error, Date.now());
        return "abandoned";
      }
      robotsText = read.text;
      followLinks = source.scope === "site";
      if (followLinks) {
        const listed = await crawler.sitemapPages(parseRobots(robotsText), startedAt + RUN_BUDGET_MS);
        if (listed.length) {
          await hub.addPages(sourceId, syncId, listed, Date.now());
          followLinks = false;
        }
      }
      await hub.setSyncMode(sourceId, syncId, robotsText, followLinks, Date.now());
    }
    const robots = parseRobots(robotsText);
    for (let i = 0; i < webSources.pagesPerRun && Date.now() - startedAt < RUN_BUDGET_MS; i++) {
      const page = await hub.next(sourceId, syncId, Date.now());
      if (!page) break;
      if (i > 0 || started.robots === null) await sleep(crawler.spacingMs(robots));
      await crawler.page(page, robots, followLinks);
    }
    const finished = await hub.finish(sourceId, syncId, Date.now());
    if (finished) {
      await crawler.dropVectors(finished);
      return "done";
    }
    // Pages are left (or the sync went stale meanwhile: the next run sees it and stops).
    await hub.runEnd(sourceId, syncId, Date.now());
    const queued = await enqueueCrawl(env, [{ assistantId: run.assistantId, sourceId, syncId }], Math.ceil(crawler.spacingMs(robots) / 1000));
    if (!queued) await hub.requeueSoon(sourceId, syncId);
    return "continued";
  } catch (error) {
    // The object did not answer (or a bug): release the source so the retried message can run.
    await hub.runEnd(sourceId, syncId, Date.now()).catch(() => undefined);
    throw error;
  }
}

/** Thrown when another run holds the source: the consumer retries the message later. */
export class CrawlBusy extends Error {
  constructor() {
    super("another run holds this source");
  }
}

/** A run stops taking pages after this long (each page is bounded too), so a queue batch stays short. */
const RUN_BUDGET_MS = 60_000;

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
      if (!answer) {
        answer = resolvePublic(host, fetcher);
        this.resolved.set(host, answer);
        // A failed lookup (DNS-over-HTTPS down, a timeout) is asked again by the next request.
        void answer.then((r) => r.ok || r.reason !== "unresolvable" || this.resolved.delete(host));
      }
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

  /**
   * The site's robots.txt as text for the sync (RFC 9309: a 4xx allows everything, kept as an
   * empty file; an unreachable one, 5xx or 429 would disallow everything, so the sync stops instead
   * and nothing indexed is lost). A private address in production ends the sync too.
   */
  async robotsText(): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
    const url = new URL("/robots.txt", this.site).href;
    const res = await fetchPage(url, this.options({ kinds: "text", overflow: "truncate", maxBytes: webSources.maxRobotsBytes }));
    if (res.ok) return { ok: true, text: res.status === 200 ? res.body : "" };
    if (res.reason === "not-public") return { ok: false, error: webSourceMessages.page.notPublic };
    const robots = robotsFromFetch(res);
    // robotsFromFetch allows everything (a 4xx, not text, too many redirects) or disallows everything (the site did not answer).
    if (robots.isAllowed("/")) return { ok: true, text: "" };
    return { ok: false, error: webSourceMessages.robotsUnavailable(res.error) };
  }

  spacingMs(robots: Robots): number {
    const floor = isLocal(this.env) && this.env.CRAWL_SPACING_MS ? Number(this.env.CRAWL_SPACING_MS) : webSources.requestSpacingMs;
    return Math.min(Math.max(robots.crawlDelayMs ?? 0, floor), webSources.maxCrawlDelayMs);
  }

  /** The pages the site's sitemaps list in the source's scope (sitemap indexes followed up to `maxSitemapFiles`). */
  async sitemapPages(robots: Robots, deadline: number): Promise<string[]> {
    const queue = robots.sitemaps.length ? [...robots.sitemaps] : [new URL("/sitemap.xml", this.site).href];
    const pages = new Set<string>();
    // Within the run's time budget (the run's lease must outlast it): a site with many sitemaps is read from the ones read by then.
    for (let read = 0; queue.length && read < webSources.maxSitemapFiles && pages.size < this.source.maxPages && Date.now() < deadline; read++) {
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
        if (page && this.inScope(page) && pages.size < this.source.maxPages) pages.add(page);
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
    // Links first: a "noindex, follow" page (a listing) still leads to the pages under it.
    if (followLinks && !read.nofollow && !header.nofollow && this.source.scope === "site") {
      const links = read.links.map((l) => normalizePageUrl(l)).filter((l): l is string => l !== null && this.inScope(l));
      if (links.length) await this.hub.addPages(this.source._id, this.syncId, links, now);
    }
    if (read.noindex || header.noindex) return this.failed(page, P.noindex, false);
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

  /** The vectors of files the object removed (drop-page-vectors.ts). */
  dropVectors(files: readonly RemovedFile[]) {
    return dropPageVectors(this.stores.vectors, this.assistantId, files);
  }

  /** In the source's scope whatever the scheme (an http:// source of an https:// site keeps its links). */
  private inScope(url: string): boolean {
    try {
      const u = new URL(url);
      u.protocol = this.site.protocol;
      return inScope(u.href, this.source.url);
    } catch {
      return false;
    }
  }

  /** Same site as the source (scheme may change, "www." is the same host); in production on the usual ports only. */
  private onSite(url: string): boolean {
    try {
      const host = (h: string) => h.replace(/^www\./, "");
      const u = new URL(url);
      if (!isLocal(this.env) && u.port) return false;
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
