/**
 * Tala's service worker (served at /service-worker.js, scope /). Bundled by
 * scripts/build-service-worker.mjs, which fills in the version and the precache list.
 *
 * - install: precaches the app shell, its hashed assets, the marketing pages, manifest and icons
 *   into a cache named after the version. It does not take over by itself: a new version waits
 *   until the page asks (postMessage {type: "SKIP_WAITING"}) after the user agreed to update.
 * - activate: deletes the caches of older versions, then controls open pages.
 * - fetch: see routing.ts. /api and /parties are never answered from, or written to, a cache.
 */
// Direct imports, not the contract index: the index pulls zod schemas into the bundle.
import { serviceWorker } from "../../contract/constants";
import { appRoutes, staticPages } from "../../contract/routes";
import { chooseStrategy } from "./routing";

declare const __TALA_SW_VERSION__: string;
declare const __TALA_PRECACHE__: readonly string[];

export const VERSION = __TALA_SW_VERSION__;
const CACHE_PREFIX = "tala-precache-";
const CACHE = `${CACHE_PREFIX}${VERSION}`;
const PRECACHE = new Set(__TALA_PRECACHE__);

// The few service worker globals used here (the project's TypeScript libs are DOM and Workers).
interface ExtendableEvt extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvt extends ExtendableEvt {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface MessageEvt extends ExtendableEvt {
  readonly data: unknown;
  readonly ports: readonly MessagePort[];
}
interface ServiceWorkerScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvt) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvt) => void): void;
  addEventListener(type: "message", listener: (event: MessageEvt) => void): void;
}
const sw = self as unknown as ServiceWorkerScope;

sw.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith(CACHE_PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
      // First install: control the page that registered us, so it works offline without a reload.
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener("message", (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === serviceWorker.skipWaitingType) void sw.skipWaiting();
  // Lets pages and tests ask which version controls them.
  if (type === "GET_VERSION") event.ports[0]?.postMessage({ version: VERSION });
});

sw.addEventListener("fetch", (event) => {
  const { request } = event;
  const strategy = chooseStrategy(request, sw.location.origin, (path) => PRECACHE.has(path));
  if (strategy === "app-shell") event.respondWith(appShell(request));
  else if (strategy === "page") event.respondWith(page(request));
  else if (strategy === "precached") event.respondWith(precached(request));
  // "network": no respondWith, the browser fetches normally.
});

async function precache(): Promise<void> {
  const cache = await caches.open(CACHE);
  await Promise.all(
    [...PRECACHE].map(async (path) => {
      // Bypass the HTTP cache: a stale copy would pin an old file under the new version.
      const response = await fetch(new Request(path, { cache: "reload", credentials: "same-origin" }));
      if (!response.ok) throw new Error(`precache ${path}: HTTP ${response.status}`);
      await cache.put(path, response.redirected ? await unredirected(response) : response);
    }),
  );
}

/** Browsers refuse a redirected response as the answer to a navigation: copy it into a plain one. */
async function unredirected(response: Response): Promise<Response> {
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function cached(path: string): Promise<Response | undefined> {
  const cache = await caches.open(CACHE);
  return (await cache.match(path)) ?? undefined;
}

async function offline(): Promise<Response> {
  return (await cached(staticPages.offline)) ?? Response.error();
}

/** Dashboard pages: the shell of this version, so the app opens offline and matches its cached assets. */
async function appShell(request: Request): Promise<Response> {
  const shell = await cached(appRoutes.root);
  if (shell) return shell;
  return fetch(request).catch(offline);
}

/** Marketing pages: fresh when online, the saved copy when not, else the offline page. */
async function page(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    return (await cached(new URL(request.url).pathname)) ?? offline();
  }
}

async function precached(request: Request): Promise<Response> {
  return (await cached(new URL(request.url).pathname)) ?? fetch(request);
}
