import { createExecutionContext, env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { hubFootprint } from "./public-assistants-helpers";
import { describe, expect, it } from "vitest";
import {
  knowledgeSearchResponse,
  publicAssistantListResponse,
  webPageListResponse,
  webSourceListResponse,
  webSourceMessages,
  webSourceResponse,
  webSources,
  type AddWebSourceBody,
} from "../../contract";
import { createApp } from "../../worker/app";
import type { Env } from "../../worker/env";
import type { CrawlQueueMessage } from "../../worker/queues/messages";
import { CRAWL_STALL_MS } from "../../worker/assistant/web-source-store";
import { CrawlBusy, crawlSource } from "../../worker/services/web-sources/crawl-source";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, expectError, json, randomIp } from "./helpers";
import { sendOverSse, sseFrames, startSession, widgetAssistant } from "./widget-helpers";

// Website sources: tests/test-site (served in Node by global-setup.ts) is crawled over
// loopback, which local mode allows. The API's queue is a fake that keeps the crawl messages, and
// the test runs each one through the consumer's `crawlSource`, as the queue would.

const site = env.TEST_SITE_URL;
const P = webSourceMessages.page;

/** A queue that keeps what is sent, for the test to run. */
function fakeQueue() {
  const sent: CrawlQueueMessage[] = [];
  const queue = {
    send: async (body: CrawlQueueMessage) => void sent.push(body),
    sendBatch: async (messages: Iterable<{ body: CrawlQueueMessage }>) => {
      for (const m of messages) sent.push(m.body);
    },
  };
  return { sent, env: { ...env, INGEST_QUEUE: queue } as unknown as Env };
}

/** The owner's API on a fresh app whose queue is `queue`. */
function ownerApi(token: string, queue: ReturnType<typeof fakeQueue>) {
  return (path: string, method = "GET", body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Token ${token}`, "cf-connecting-ip": randomIp() };
    if (body !== undefined) headers["content-type"] = "application/json";
    const request = new Request(`http://tala.test${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    return createApp().fetch(request, queue.env, createExecutionContext());
  };
}

/** Runs the queued crawl messages (and the ones they queue) until none is left. */
async function drive(queue: ReturnType<typeof fakeQueue>) {
  for (let i = 0; i < 100 && queue.sent.length; i++) await crawlSource(queue.env, queue.sent.shift()!);
  expect(queue.sent).toEqual([]);
}

const hits = async () => (await (await fetch(`${site}/__hits`)).json()) as { path: string; userAgent: string; conditional: boolean }[];
/** Sets the test site's content: the defaults, then `query`'s changes. */
const setSite = (query: string) => {
  const params = new URLSearchParams({ pricing: "1", docsB: "1", swap: "0", robots: "200" });
  for (const [k, v] of new URLSearchParams(query)) params.set(k, v);
  return fetch(`${site}/__set?${params}`);
};

async function setup() {
  const { token, assistant, key } = await widgetAssistant({ showSources: true }, { upload: false });
  const queue = fakeQueue();
  const api = ownerApi(token, queue);
  const base = `/api/public-assistants/${assistant._id}`;
  const add = async (body: AddWebSourceBody) => {
    const res = await api(`${base}/sources`, "POST", body);
    expect(res.status, await res.clone().text()).toBe(202);
    return (await json(res, webSourceResponse)).source;
  };
  const sources = async () => (await json(await api(`${base}/sources`), webSourceListResponse)).sources;
  const pages = async (sourceId: string) => (await json(await api(`${base}/sources/${sourceId}/pages`), webPageListResponse)).pages;
  const search = async (q: string) => (await json(await api(`${base}/search?q=${encodeURIComponent(q)}`), knowledgeSearchResponse)).results;
  return { token, key, assistant, queue, api, base, add, sources, pages, search };
}

describe("website sources: crawling", () => {
  it("reads a site from its sitemap: robots.txt obeyed, redirects followed, failures say why; the widget answers from it and links the page", async () => {
    await setSite("reset=1");
    const t = await setup();
    const source = await t.add({ url: `${site}/`, scope: "site" });
    expect(source).toMatchObject({ url: `${site}/`, scope: "site", status: "queued", maxPages: webSources.defaultMaxPages, schedule: "off" });
    expect(t.queue.sent).toEqual([{ kind: "crawl", assistantId: t.assistant._id, sourceId: source._id, syncId: expect.any(String) }]);

    await drive(t.queue);
    const [done] = await t.sources();
    expect(done).toMatchObject({ status: "ready", pagesFound: 6, pagesDone: 3, pagesFailed: 3, error: null });
    expect(done!.lastSyncedAt).toBeGreaterThan(0);

    const byUrl = new Map((await t.pages(source._id)).map((p) => [new URL(p.url).pathname, p]));
    expect(byUrl.get("/")).toMatchObject({ status: "indexed", title: "Harbor Kettles" });
    expect(byUrl.get("/pricing")).toMatchObject({ status: "indexed", title: "Pricing" });
    expect(byUrl.get("/old-page")).toMatchObject({ status: "indexed", title: "Refund policy" });
    expect(byUrl.get("/private/secret")).toMatchObject({ status: "failed", error: P.blockedByRobots });
    expect(byUrl.get("/missing")).toMatchObject({ status: "failed", error: P.httpStatus(404) });
    expect(byUrl.get("/files/guide.pdf")).toMatchObject({ status: "failed", error: P.notHtml("application/pdf") });

    // Polite: the disallowed page was never requested, and every request said it was Tala.
    const requests = await hits();
    expect(requests.some((h) => h.path.startsWith("/private/"))).toBe(false);
    expect(new Set(requests.map((h) => h.userAgent))).toEqual(new Set([webSources.userAgent]));

    // Main text only: the cookie banner, navigation and footer are not knowledge.
    expect(await t.search("cookies")).toEqual([]);
    expect(await t.search("Careers Imprint")).toEqual([]);
    const [refund] = await t.search("refund within 45 days");
    expect(refund).toMatchObject({ fileName: "Refund policy", url: `${site}/new-page` });
    const [price] = await t.search("Douro kettle price");
    expect(price).toMatchObject({ fileName: "Pricing", url: `${site}/pricing` });

    // Pages are not uploaded files: the assistant's file list stays empty.
    const { assistants } = await json(await t.api("/api/public-assistants"), publicAssistantListResponse);
    expect(assistants.find((a) => a._id === t.assistant._id)?.files).toEqual([]);

    // The widget answers from the page and links it.
    const session = await startSession(t.key);
    const frames = await sseFrames(await sendOverSse(t.key, session.sessionId, { content: "How many days do I have for a refund?" }));
    const answer = frames.find((f) => f.event === "new-message" && f.data.message.role === "assistant");
    expect(answer?.event === "new-message" && answer.data.message.sources).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "Refund policy", url: `${site}/new-page` })]),
    );
  });

  it("follows same-site links in scope when the site has no sitemap entries for it, through noindex pages too", async () => {
    await setSite("reset=1");
    const t = await setup();
    const source = await t.add({ url: `${site}/docs/`, scope: "site", maxPages: 10 });
    await drive(t.queue);
    const pages = new Map((await t.pages(source._id)).map((p) => [new URL(p.url).pathname, p]));
    expect([...pages.keys()].sort()).toEqual(["/docs/", "/docs/a", "/docs/b", "/docs/c", "/docs/list"]);
    expect(pages.get("/docs/list")).toMatchObject({ status: "failed", error: P.noindex });
    for (const path of ["/docs/", "/docs/a", "/docs/b", "/docs/c"]) expect(pages.get(path)?.status).toBe("indexed");
    const requests = await hits();
    expect(requests.some((h) => h.path === "/pricing")).toBe(false);
    expect((await t.search("white vinegar"))[0]).toMatchObject({ url: `${site}/docs/a` });
    expect((await t.search("whistles replaced"))[0]).toMatchObject({ url: `${site}/docs/c` });
  });

  it("a text that moved to another page is indexed there, not taken for a duplicate of its old place", async () => {
    await setSite("reset=1");
    const t = await setup();
    const source = await t.add({ url: `${site}/docs/`, scope: "site" });
    await drive(t.queue);
    await setSite("swap=1");
    expect((await t.api(`${t.base}/sources/${source._id}/sync`, "POST")).status).toBe(202);
    await drive(t.queue);
    const pages = new Map((await t.pages(source._id)).map((p) => [new URL(p.url).pathname, p]));
    expect(pages.get("/docs/a")).toMatchObject({ status: "indexed", title: "Warranty" });
    expect(pages.get("/docs/b")).toMatchObject({ status: "indexed", title: "Lids" });
    expect((await t.search("lifetime warranty copper body"))[0]).toMatchObject({ url: `${site}/docs/a` });
    expect((await t.search("spare lids"))[0]).toMatchObject({ url: `${site}/docs/b` });
  });

  it("a site down for a moment changes nothing: robots.txt or the start page unreachable ends the sync and keeps the index", async () => {
    await setSite("reset=1");
    const t = await setup();
    const source = await t.add({ url: `${site}/docs/`, scope: "site" });
    await drive(t.queue);
    const before = await t.sources();

    await setSite("robots=503");
    expect((await t.api(`${t.base}/sources/${source._id}/sync`, "POST")).status).toBe(202);
    await drive(t.queue);
    const [failed] = await t.sources();
    expect(failed).toMatchObject({ status: "failed", pagesFound: before[0]!.pagesFound, pagesDone: before[0]!.pagesDone });
    expect(failed!.error).toBe(webSourceMessages.robotsUnavailable(P.httpStatus(503)));
    expect((await t.search("white vinegar"))[0]).toMatchObject({ url: `${site}/docs/a` });
    expect((await t.pages(source._id)).filter((p) => p.status === "removed")).toEqual([]);

    // The site is back: the next sync reads it as before.
    await setSite("");
    expect((await t.api(`${t.base}/sources/${source._id}/sync`, "POST")).status).toBe(202);
    await drive(t.queue);
    expect((await t.sources())[0]).toMatchObject({ status: "ready", error: null, pagesDone: before[0]!.pagesDone });
  });

  it("keeps to the page limit", async () => {
    await setSite("");
    const t = await setup();
    const source = await t.add({ url: `${site}/docs/`, scope: "site", maxPages: 2 });
    await drive(t.queue);
    const [done] = await t.sources();
    expect(done).toMatchObject({ pagesFound: 2, pagesDone: 2 });
    expect((await t.pages(source._id)).length).toBe(2);
  });

  it("a sync skips unchanged pages, indexes changed ones again and drops pages the site removed", async () => {
    await setSite("reset=1");
    const t = await setup();
    const root = await t.add({ url: `${site}/`, scope: "site" });
    const docs = await t.add({ url: `${site}/docs/`, scope: "site" });
    await drive(t.queue);
    const before = new Map((await t.pages(root._id)).map((p) => [new URL(p.url).pathname, p]));

    await setSite("pricing=2&docsB=0&reset=1");
    for (const s of [root, docs]) {
      const res = await t.api(`${t.base}/sources/${s._id}/sync`, "POST");
      expect(res.status).toBe(202);
    }
    await drive(t.queue);

    const after = new Map((await t.pages(root._id)).map((p) => [new URL(p.url).pathname, p]));
    expect(after.get("/")).toMatchObject({ status: "unchanged" });
    expect(after.get("/")!.changedAt).toBe(before.get("/")!.changedAt);
    expect(after.get("/pricing")).toMatchObject({ status: "indexed" });
    expect(after.get("/pricing")!.changedAt).toBeGreaterThan(before.get("/pricing")!.changedAt!);
    // From its sitemap, the site is asked conditionally (ETag): the home page answered 304.
    expect((await hits()).find((h) => h.path === "/")?.conditional).toBe(true);
    expect(await t.search("Douro")).toEqual([]);
    expect((await t.search("Tagus"))[0]).toMatchObject({ url: `${site}/pricing` });

    const docPages = new Map((await t.pages(docs._id)).map((p) => [new URL(p.url).pathname, p]));
    expect(docPages.get("/docs/b")).toMatchObject({ status: "removed" });
    expect(await t.search("lifetime warranty")).toEqual([]);
    const [docsSource] = (await t.sources()).filter((s) => s._id === docs._id);
    // docs/, a, list (noindex: failed) and c are still there; b is gone.
    expect(docsSource).toMatchObject({ status: "ready", pagesFound: 4, pagesDone: 3, pagesFailed: 1 });
  });

  it("removing a source takes its pages out of the knowledge", async () => {
    await setSite("");
    const t = await setup();
    const source = await t.add({ url: `${site}/docs/`, scope: "site" });
    await drive(t.queue);
    expect((await t.search("white vinegar")).length).toBeGreaterThan(0);
    const res = await t.api(`${t.base}/sources/${source._id}`, "DELETE");
    expect(res.status).toBe(204);
    expect(await t.search("white vinegar")).toEqual([]);
    expect(await t.sources()).toEqual([]);
    expect(await hubFootprint(t.assistant._id)).toMatchObject({ files: 0, chunks: 0 });
    await expectError(await t.api(`${t.base}/sources/${source._id}/pages`), 404, webSourceMessages.sourceNotFound);
  });

  it("a one-page source reads only that page", async () => {
    await setSite("");
    const t = await setup();
    const source = await t.add({ url: `${site}/pricing`, scope: "page" });
    expect(source.maxPages).toBe(1);
    await drive(t.queue);
    const pages = await t.pages(source._id);
    expect(pages).toEqual([expect.objectContaining({ url: `${site}/pricing`, status: "indexed" })]);
  });

  it("a source whose start page cannot be read fails with the page's reason", async () => {
    const t = await setup();
    await t.add({ url: `${site}/missing`, scope: "page" });
    await drive(t.queue);
    const [failed] = await t.sources();
    expect(failed).toMatchObject({ status: "failed", error: P.httpStatus(404), pagesDone: 0, pagesFailed: 1 });
  });

  it("a scheduled source is synced again by the assistant's alarm when due", async () => {
    await setSite("");
    const t = await setup();
    const source = await t.add({ url: `${site}/pricing`, scope: "page", schedule: "daily" });
    await drive(t.queue);
    const [ready] = await t.sources();
    expect(ready!.nextSyncAt).toBe(ready!.lastSyncedAt! + webSources.scheduleMs.daily);

    const stub = getAssistantHub(env, t.assistant._id);
    await runInDurableObject(stub, (_hub, state) => {
      state.storage.sql.exec("UPDATE web_sources SET next_sync_at = ? WHERE id = ?", Date.now() - 1, source._id);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const [due] = await t.sources();
    expect(due).toMatchObject({ status: "queued", nextSyncAt: null });

    // Its run is lost (no consumer took it): the alarm queues it again once, then waits a stall period.
    await runInDurableObject(stub, (_hub, state) => {
      state.storage.sql.exec("UPDATE web_sources SET active_at = ?, lease_until = 0 WHERE id = ?", Date.now() - CRAWL_STALL_MS - 1, source._id);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const after = await runInDurableObject(stub, async (_hub, state) => ({
      activeAt: Number(state.storage.sql.exec("SELECT active_at FROM web_sources WHERE id = ?", source._id).one().active_at),
      alarm: await state.storage.getAlarm(),
    }));
    expect(after.activeAt).toBeGreaterThan(Date.now() - 5_000);
    expect(after.alarm).toBeGreaterThan(Date.now() + CRAWL_STALL_MS - 5_000);
  });

  it("a second run of the same sync while one holds the source is retried later, not run twice", async () => {
    await setSite("");
    const t = await setup();
    await t.add({ url: `${site}/docs/`, scope: "site" });
    const [message] = t.queue.sent;
    const first = crawlSource(t.queue.env, message!);
    await new Promise((r) => setTimeout(r, 5));
    await expect(crawlSource(t.queue.env, message!)).rejects.toBeInstanceOf(CrawlBusy);
    await first;
  });

  it("in production the crawler itself refuses a private address (not only the add route)", async () => {
    await setSite("reset=1");
    const t = await setup();
    await t.add({ url: `${site}/docs/`, scope: "site" });
    const prod = { ...t.queue.env, ENVIRONMENT: "production" } as unknown as Env;
    for (const m of t.queue.sent.splice(0)) await crawlSource(prod, m);
    const [source] = await t.sources();
    expect(source).toMatchObject({ status: "failed", error: P.notPublic, pagesDone: 0 });
    expect(await hits()).toEqual([]);
  });
});

describe("website sources: errors and safety", () => {
  it("refuses bad input with a sentence naming the field", async () => {
    const t = await setup();
    const post = (body: unknown) => t.api(`${t.base}/sources`, "POST", body);
    await expectError(await post({ url: "ftp://example.com/" }), 400, webSourceMessages.urlInvalid);
    await expectError(await post({ url: "not a url" }), 400, webSourceMessages.urlInvalid);
    await expectError(await post({}), 400, webSourceMessages.urlRequired);
    await expectError(await post({ url: "https://user:pw@example.com/" }), 400, webSourceMessages.urlCredentials);
    await expectError(await post({ url: `https://example.com/${"a".repeat(webSources.maxUrlChars)}` }), 400, webSourceMessages.urlTooLong(webSources.maxUrlChars));
    await expectError(await post({ url: "https://example.com/", scope: "everything" }), 400, webSourceMessages.scopeInvalid);
    await expectError(await post({ url: "https://example.com/", scope: "site", maxPages: 501 }), 400, webSourceMessages.maxPagesRange(webSources.maxMaxPages));
    await expectError(await post({ url: "https://example.com/", scope: "site", maxPages: 0 }), 400, webSourceMessages.maxPagesRange(webSources.maxMaxPages));
    await expectError(await post({ url: "https://example.com/", schedule: "hourly" }), 400, webSourceMessages.scheduleInvalid);
    expect(t.queue.sent).toEqual([]);
  });

  it("refuses a second source with the same address, a sync while one runs, and unknown sources", async () => {
    const t = await setup();
    const source = await t.add({ url: `${site}/pricing`, scope: "page" });
    await expectError(await t.api(`${t.base}/sources`, "POST", { url: `${site}/pricing` }), 409, webSourceMessages.duplicateSource);
    await expectError(await t.api(`${t.base}/sources/${source._id}/sync`, "POST"), 409, webSourceMessages.syncRunning);
    await expectError(await t.api(`${t.base}/sources/nope/sync`, "POST"), 404, webSourceMessages.sourceNotFound);
    await expectError(await t.api(`${t.base}/sources/nope`, "DELETE"), 404, webSourceMessages.sourceNotFound);
  });

  it("another owner's assistant is a 404, and signed-out calls a 401", async () => {
    const t = await setup();
    const other = await setup();
    const res = await call(`/api/public-assistants/${t.assistant._id}/sources`, { token: other.token });
    expect(res.status).toBe(404);
    const add = await call(`/api/public-assistants/${t.assistant._id}/sources`, { token: other.token, json: { url: `${site}/` } });
    expect(add.status).toBe(404);
    expect((await call(`/api/public-assistants/${t.assistant._id}/sources`)).status).toBe(401);
  });

  it("in production, refuses private, loopback, link-local and metadata addresses", async () => {
    const t = await setup();
    const prod = { ...t.queue.env, ENVIRONMENT: "production" } as unknown as Env;
    for (const url of ["http://127.0.0.1:8080/", "http://169.254.169.254/latest/meta-data/", "http://10.0.0.5/", "http://[::1]/", "http://localhost/", "http://printer.local/"]) {
      const res = await createApp().fetch(
        new Request(`http://tala.test${t.base}/sources`, {
          method: "POST",
          headers: { authorization: `Token ${t.token}`, "content-type": "application/json", "cf-connecting-ip": randomIp() },
          body: JSON.stringify({ url }),
        }),
        prod,
        createExecutionContext(),
      );
      await expectError(res, 400, webSourceMessages.urlNotPublic);
    }
  });
});
