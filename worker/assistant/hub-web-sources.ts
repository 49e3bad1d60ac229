import type { WebPage, WebSource, WebSourceSchedule, WebSourceScope } from "../../contract";
import type { Env } from "../env";
import { reachAssistantHub } from "../widget/get-assistant-hub";
import type { AddSourceResult, CrawlPage, RemovedFile, WebSourceStore } from "./web-source-store";

/** The website-source operations the hub serves over RPC (`AssistantHub.webSources`): `WebSourceStore` methods. */
export const webSourceOps = [
  "list",
  "get",
  "pages",
  "add",
  "update",
  "startSync",
  "remove",
  "runStart",
  "setSyncMode",
  "abandon",
  "requeueSoon",
  "runEnd",
  "addPages",
  "next",
  "pageFailed",
  "pageUnchanged",
  "pageFetched",
  "pageIndexed",
  "finish",
] as const satisfies readonly (keyof WebSourceStore)[];
export type WebSourceOp = (typeof webSourceOps)[number];
/** Operations after which the hub's alarm is set again (a sync started, ended or was rescheduled). */
export const webSourceOpsThatWake = ["list", "add", "update", "startSync", "abandon", "requeueSoon", "runEnd", "finish"] as const satisfies readonly WebSourceOp[];

type Store = WebSourceStore;
/** What `AssistantHub.webSources` answers when the assistant is gone. */
type Gone = null;

/**
 * An assistant's website sources as the worker reaches them: each call is one RPC to its own
 * object (AssistantHub.webSources). Every method answers null when the assistant no longer exists.
 */
export function hubWebSources(env: Pick<Env, "ASSISTANT_HUB">, assistantId: string) {
  const hub = reachAssistantHub(env, assistantId);
  const call = <T>(op: WebSourceOp, ...args: unknown[]) => hub.webSources(assistantId, op, args) as Promise<T | Gone>;
  return {
    list: () => call<WebSource[]>("list"),
    get: (sourceId: string) => call<ReturnType<Store["get"]>>("get", sourceId),
    pages: (sourceId: string) => call<WebPage[]>("pages", sourceId),
    add: (input: { url: string; scope: WebSourceScope; maxPages: number; schedule: WebSourceSchedule }, now: number) => call<AddSourceResult>("add", input, now),
    update: (sourceId: string, changes: { maxPages?: number | undefined; schedule?: WebSourceSchedule | undefined }, now: number) =>
      call<ReturnType<Store["update"]>>("update", sourceId, changes, now),
    startSync: (sourceId: string, now: number) => call<ReturnType<Store["startSync"]>>("startSync", sourceId, now),
    remove: (sourceId: string) => call<RemovedFile[] | null>("remove", sourceId),
    runStart: (sourceId: string, syncId: string, now: number) => call<ReturnType<Store["runStart"]>>("runStart", sourceId, syncId, now),
    setSyncMode: (sourceId: string, syncId: string, robots: string, followLinks: boolean, now: number) =>
      call<void>("setSyncMode", sourceId, syncId, robots, followLinks, now),
    abandon: (sourceId: string, syncId: string, error: string, now: number) => call<void>("abandon", sourceId, syncId, error, now),
    requeueSoon: (sourceId: string, syncId: string) => call<void>("requeueSoon", sourceId, syncId),
    runEnd: (sourceId: string, syncId: string, now: number) => call<void>("runEnd", sourceId, syncId, now),
    addPages: (sourceId: string, syncId: string, urls: readonly string[], now: number) => call<number>("addPages", sourceId, syncId, urls, now),
    next: (sourceId: string, syncId: string, now: number) => call<CrawlPage | null>("next", sourceId, syncId, now),
    pageFailed: (pageId: string, syncId: string, error: string, keep: boolean, now: number) => call<RemovedFile[]>("pageFailed", pageId, syncId, error, keep, now),
    pageUnchanged: (pageId: string, syncId: string, validators: { etag: string | null; lastModified: string | null }, now: number) =>
      call<void>("pageUnchanged", pageId, syncId, validators, now),
    pageFetched: (input: Parameters<Store["pageFetched"]>[0], now: number) => call<ReturnType<Store["pageFetched"]>>("pageFetched", input, now),
    pageIndexed: (pageId: string, syncId: string, hash: string, chunkCount: number, now: number) => call<void>("pageIndexed", pageId, syncId, hash, chunkCount, now),
    finish: (sourceId: string, syncId: string, now: number) => call<RemovedFile[] | null>("finish", sourceId, syncId, now),
  };
}
export type HubWebSources = ReturnType<typeof hubWebSources>;
