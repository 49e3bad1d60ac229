import type { Env } from "../env";
import { reachAssistantHub } from "../durable-objects/stubs";
import { unlessGone, type Gone } from "./gone";

/**
 * An assistant's website sources as the owner's routes and the crawler reach them: the typed
 * facet `hub.webSources()` (facets/web-sources.ts), one pipelined RPC a call, with `gone` read as
 * null: to the crawler and the routes a deleted assistant's source is a source that is gone.
 */
export function hubWebSources(env: Pick<Env, "ASSISTANT_HUB">, assistantId: string) {
  const sources = () => reachAssistantHub(env, assistantId).webSources();
  type Facet = ReturnType<typeof sources>;
  const orNull = async <P extends PromiseLike<unknown>>(call: (facet: Facet) => P) => unlessGone(await call(sources()), null) as Exclude<Awaited<P>, Gone> | null;
  return {
    list: () => orNull((f) => f.list()),
    get: (sourceId: string) => orNull((f) => f.get(sourceId)),
    pages: (sourceId: string) => orNull((f) => f.pages(sourceId)),
    add: (...a: Parameters<Facet["add"]>) => orNull((f) => f.add(...a)),
    update: (...a: Parameters<Facet["update"]>) => orNull((f) => f.update(...a)),
    startSync: (...a: Parameters<Facet["startSync"]>) => orNull((f) => f.startSync(...a)),
    remove: (sourceId: string) => orNull((f) => f.remove(sourceId)),
    runStart: (...a: Parameters<Facet["runStart"]>) => orNull((f) => f.runStart(...a)),
    setSyncMode: (...a: Parameters<Facet["setSyncMode"]>) => orNull((f) => f.setSyncMode(...a)),
    abandon: (...a: Parameters<Facet["abandon"]>) => orNull((f) => f.abandon(...a)),
    requeueSoon: (...a: Parameters<Facet["requeueSoon"]>) => orNull((f) => f.requeueSoon(...a)),
    runEnd: (...a: Parameters<Facet["runEnd"]>) => orNull((f) => f.runEnd(...a)),
    addPages: (...a: Parameters<Facet["addPages"]>) => orNull((f) => f.addPages(...a)),
    next: (...a: Parameters<Facet["next"]>) => orNull((f) => f.next(...a)),
    pageFailed: (...a: Parameters<Facet["pageFailed"]>) => orNull((f) => f.pageFailed(...a)),
    pageUnchanged: (...a: Parameters<Facet["pageUnchanged"]>) => orNull((f) => f.pageUnchanged(...a)),
    pageFetched: (...a: Parameters<Facet["pageFetched"]>) => orNull((f) => f.pageFetched(...a)),
    pageIndexed: (...a: Parameters<Facet["pageIndexed"]>) => orNull((f) => f.pageIndexed(...a)),
    finish: (...a: Parameters<Facet["finish"]>) => orNull((f) => f.finish(...a)),
  };
}
export type HubWebSources = ReturnType<typeof hubWebSources>;
