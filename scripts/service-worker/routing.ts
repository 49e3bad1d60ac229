// Direct imports, not the contract index: the index pulls zod schemas into the worker bundle.
import { serviceWorker } from "../../contract/constants";
import { isDashboardPath } from "../../contract/routes";

/**
 * What the service worker does with a request. Pure (no service worker globals), so it is unit-tested.
 * - "network": not handled at all; the browser fetches as if there were no worker. Every /api and
 *   /parties request takes this path, so API answers and realtime traffic are never cached.
 * - "app-shell": a dashboard navigation (/app/*, /login, …): the precached /app shell.
 * - "page": any other navigation: the network first, then the precached copy, then /offline.
 * - "precached": a file of the precache list (hashed assets, icons, manifest): cache first.
 */
export type Strategy = "network" | "app-shell" | "page" | "precached";

export interface RequestFacts {
  method: string;
  url: string;
  /** Request.mode: "navigate" for page loads. */
  mode: string;
}

const NEVER_CACHED = /^\/(api|parties)(\/|$)/;

export function chooseStrategy(request: RequestFacts, origin: string, isPrecached: (path: string) => boolean): Strategy {
  if (request.method !== "GET") return "network";
  const url = new URL(request.url);
  if (url.origin !== origin) return "network";
  if (NEVER_CACHED.test(url.pathname) || url.pathname === serviceWorker.path) return "network";
  if (request.mode === "navigate") return isDashboardPath(url.pathname) ? "app-shell" : "page";
  return isPrecached(url.pathname) ? "precached" : "network";
}
