import { RpcTarget } from "cloudflare:workers";
import type { WebPage, WebSource, WebSourceSchedule, WebSourceScope } from "../../../contract";
import type { Gone } from "../gone";
import type { HubCore } from "../hub-core";
import { WebSourceStore, type AddSourceResult, type CrawlPage, type RemovedFile, type RunStart } from "../web-source-store";
import { whenOpen } from "./run";

type Store = WebSourceStore;

/**
 * `hub.webSources()`: the assistant's website sources (web-source-store.ts); the crawl itself runs
 * in the queue consumer. A call that starts, ends or reschedules a sync sets the `web-sources`
 * alarm (scheduled syncs, stalled runs). Every method answers `gone` once the assistant was deleted.
 */
export class WebSourcesFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  #with<T>(use: (store: Store) => T): Promise<T | Gone> {
    return whenOpen(this.#core, () => use(new WebSourceStore(this.#core.storage)));
  }

  /** `#with`, then the alarm set for what the call changed. */
  #waking<T>(use: (store: Store) => T): Promise<T | Gone> {
    return whenOpen(this.#core, async () => {
      const result = use(new WebSourceStore(this.#core.storage));
      await this.#core.wakeForSources();
      return result;
    });
  }

  list(): Promise<WebSource[] | Gone> {
    return this.#waking((s) => s.list());
  }
  get(sourceId: string): Promise<WebSource | null | Gone> {
    return this.#with((s) => s.get(sourceId));
  }
  pages(sourceId: string): Promise<WebPage[] | Gone> {
    return this.#with((s) => s.pages(sourceId));
  }
  add(input: { url: string; scope: WebSourceScope; maxPages: number; schedule: WebSourceSchedule }, now: number): Promise<AddSourceResult | Gone> {
    return this.#waking((s) => s.add(input, now));
  }
  update(sourceId: string, changes: { maxPages?: number | undefined; schedule?: WebSourceSchedule | undefined }, now: number): Promise<WebSource | null | Gone> {
    return this.#waking((s) => s.update(sourceId, changes, now));
  }
  startSync(sourceId: string, now: number): Promise<ReturnType<Store["startSync"]> | Gone> {
    return this.#waking((s) => s.startSync(sourceId, now));
  }
  remove(sourceId: string): Promise<RemovedFile[] | null | Gone> {
    return this.#with((s) => s.remove(sourceId));
  }
  runStart(sourceId: string, syncId: string, now: number): Promise<RunStart | Gone> {
    return this.#with((s) => s.runStart(sourceId, syncId, now));
  }
  setSyncMode(sourceId: string, syncId: string, robots: string, followLinks: boolean, now: number): Promise<void | Gone> {
    return this.#with((s) => s.setSyncMode(sourceId, syncId, robots, followLinks, now));
  }
  abandon(sourceId: string, syncId: string, error: string, now: number): Promise<void | Gone> {
    return this.#waking((s) => s.abandon(sourceId, syncId, error, now));
  }
  requeueSoon(sourceId: string, syncId: string): Promise<void | Gone> {
    return this.#waking((s) => s.requeueSoon(sourceId, syncId));
  }
  runEnd(sourceId: string, syncId: string, now: number): Promise<void | Gone> {
    return this.#waking((s) => s.runEnd(sourceId, syncId, now));
  }
  addPages(sourceId: string, syncId: string, urls: readonly string[], now: number): Promise<number | Gone> {
    return this.#with((s) => s.addPages(sourceId, syncId, urls, now));
  }
  next(sourceId: string, syncId: string, now: number): Promise<CrawlPage | null | Gone> {
    return this.#with((s) => s.next(sourceId, syncId, now));
  }
  pageFailed(pageId: string, syncId: string, error: string, keep: boolean, now: number): Promise<RemovedFile[] | Gone> {
    return this.#with((s) => s.pageFailed(pageId, syncId, error, keep, now));
  }
  pageUnchanged(pageId: string, syncId: string, validators: { etag: string | null; lastModified: string | null }, now: number): Promise<void | Gone> {
    return this.#with((s) => s.pageUnchanged(pageId, syncId, validators, now));
  }
  pageFetched(input: Parameters<Store["pageFetched"]>[0], now: number): Promise<ReturnType<Store["pageFetched"]> | Gone> {
    return this.#with((s) => s.pageFetched(input, now));
  }
  pageIndexed(pageId: string, syncId: string, hash: string, chunkCount: number, now: number): Promise<void | Gone> {
    return this.#with((s) => s.pageIndexed(pageId, syncId, hash, chunkCount, now));
  }
  finish(sourceId: string, syncId: string, now: number): Promise<RemovedFile[] | null | Gone> {
    return this.#waking((s) => s.finish(sourceId, syncId, now));
  }
}
