import { createHash } from "node:crypto";
import { appRoutes, serviceWorker, staticPages } from "../../contract";

/**
 * Decides what the service worker precaches from the built files of dist/public, and the version
 * that names its cache. Pure: the build script reads the files and passes them in.
 */

/** The site path a built file is served at (wrangler assets, html_handling auto-trailing-slash). */
export function servedPath(file: string): string {
  if (file === "index.html") return "/";
  if (file.endsWith("/index.html")) return `/${file.slice(0, -"/index.html".length)}/`;
  if (file.endsWith(".html")) return `/${file.slice(0, -".html".length)}`;
  return `/${file}`;
}

const TEXT = /\.(html|js|mjs|css|json|webmanifest)$/;
const ASSET_REF = /(?:^|[^\w/.-])\/?(assets\/[\w.-]+\.\w+)/g;

/** Paths under /assets/ named in a text file: "/assets/x.js" in HTML or CSS, "assets/x.js" in Vite's chunk maps. */
export function assetReferences(text: string): string[] {
  return [...new Set([...text.matchAll(ASSET_REF)].map((m) => `/${m[1]}`))];
}

/** Files never precached: the worker itself, source maps, the 404 page, the Open Graph image. */
function excluded(file: string): boolean {
  return (
    file === serviceWorker.path.slice(1) ||
    file.endsWith(".map") ||
    servedPath(file) === staticPages.notFound ||
    file.endsWith("og-image.png") ||
    file === "robots.txt" ||
    file === "sitemap.xml"
  );
}

export interface PrecachePlan {
  /** Site paths to precache, sorted. */
  urls: string[];
  /** Names the cache; changes whenever a precached file, the worker's code or TALA_BUILD_ID changes. */
  version: string;
}

/**
 * The precache list: the app shell (/app) and every /assets file it references, directly or
 * through other assets (lazy chunks); every marketing page and the offline page; the manifest and icons.
 *
 * @param files dist/public files by path relative to it ("blog/3.html", "assets/app-x.js").
 * @param workerCode the service worker's code before the version is filled in.
 * @param buildId TALA_BUILD_ID: changes the version (and so triggers an update) without other changes.
 */
export function planPrecache(files: ReadonlyMap<string, Uint8Array>, workerCode: string, buildId = ""): PrecachePlan {
  const byPath = new Map<string, string>();
  for (const file of files.keys()) if (!excluded(file)) byPath.set(servedPath(file), file);

  const shell = byPath.get(appRoutes.root);
  if (!shell) throw new Error("service worker: dist/public/app.html is missing; build the dashboard first");
  if (!byPath.has(staticPages.offline)) throw new Error("service worker: the offline page is missing; build the marketing site first");

  const urls = new Set<string>();
  const queue: string[] = [];
  const add = (path: string) => {
    if (urls.has(path) || !byPath.has(path)) return;
    urls.add(path);
    queue.push(path);
  };
  for (const [path, file] of byPath) {
    if (file.endsWith(".html") || file.startsWith("icons/") || path === serviceWorker.manifestPath) add(path);
  }
  // Follow references from pages to assets, and from assets to lazily loaded assets.
  const decoder = new TextDecoder();
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    const file = byPath.get(path)!;
    if (TEXT.test(file)) for (const ref of assetReferences(decoder.decode(files.get(file)))) add(ref);
  }

  const sorted = [...urls].sort();
  const hash = createHash("sha256").update(`build:${buildId}\ncode:${workerCode}\n`);
  for (const path of sorted) {
    hash.update(`${path}\n`);
    hash.update(files.get(byPath.get(path)!)!);
    hash.update("\n");
  }
  return { urls: sorted, version: hash.digest("hex").slice(0, 16) };
}
