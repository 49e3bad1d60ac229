import { describe, expect, it } from "vitest";
import { assetReferences, planPrecache, servedPath } from "./precache";

const text = (s: string) => new TextEncoder().encode(s);
const site = (overrides: Record<string, string> = {}) =>
  new Map(
    Object.entries({
      "app.html": '<script type="module" src="/assets/app-1.js"></script><link rel="stylesheet" href="/assets/app-1.css">',
      "assets/app-1.js": 'const m = ["assets/chat-2.js"]; import("./chat-2.js")',
      "assets/app-1.css": "body{}",
      "assets/chat-2.js": 'export const x = "assets/markdown-3.js";',
      "assets/markdown-3.js": "export {}",
      "assets/unused-4.js": "export {}",
      "assets/app-1.js.map": "{}",
      "index.html": "<h1>Tala</h1>",
      "blog.html": "<h1>Blog</h1>",
      "blog/3.html": "<h1>Post</h1>",
      "ai-morocco.html": "<h1>Post</h1>",
      "offline.html": "<h1>Offline</h1>",
      "404.html": "<h1>Not found</h1>",
      "manifest.webmanifest": "{}",
      "icons/icon-192.png": "png",
      "icons/og-image.png": "png",
      "robots.txt": "",
      "sitemap.xml": "",
      "service-worker.js": "old",
      ...overrides,
    }).map(([k, v]) => [k, text(v)]),
  );

describe("servedPath", () => {
  it("follows wrangler's auto-trailing-slash", () => {
    expect(servedPath("index.html")).toBe("/");
    expect(servedPath("app.html")).toBe("/app");
    expect(servedPath("blog/3.html")).toBe("/blog/3");
    expect(servedPath("docs/index.html")).toBe("/docs/");
    expect(servedPath("assets/app-1.js")).toBe("/assets/app-1.js");
  });
});

describe("assetReferences", () => {
  it("finds absolute and Vite-relative asset paths", () => {
    expect(assetReferences('src="/assets/a-1.js" "assets/b-2.js" url(/assets/f.woff2) x/assets/no.js')).toEqual([
      "/assets/a-1.js",
      "/assets/b-2.js",
      "/assets/f.woff2",
    ]);
  });
});

describe("planPrecache", () => {
  it("precaches the shell, the assets it reaches, the pages, the manifest and icons; nothing else", () => {
    const { urls } = planPrecache(site(), "code");
    expect(urls).toEqual([
      "/",
      "/ai-morocco",
      "/app",
      "/assets/app-1.css",
      "/assets/app-1.js",
      "/assets/chat-2.js",
      "/assets/markdown-3.js",
      "/blog",
      "/blog/3",
      "/icons/icon-192.png",
      "/manifest.webmanifest",
      "/offline",
    ]);
  });

  it("has a version that changes with any precached byte, the worker code or TALA_BUILD_ID, and only then", () => {
    const base = planPrecache(site(), "code").version;
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    expect(planPrecache(site(), "code").version).toBe(base);
    expect(planPrecache(site({ "assets/unused-4.js": "changed" }), "code").version).toBe(base);
    expect(planPrecache(site({ "blog/3.html": "<h1>Edited</h1>" }), "code").version).not.toBe(base);
    expect(planPrecache(site({ "assets/markdown-3.js": "export {1}" }), "code").version).not.toBe(base);
    expect(planPrecache(site(), "other code").version).not.toBe(base);
    expect(planPrecache(site(), "code", "build-2").version).not.toBe(base);
  });

  it("refuses a build without the app shell or the offline page", () => {
    const noShell = site();
    noShell.delete("app.html");
    expect(() => planPrecache(noShell, "")).toThrow(/app\.html/);
    const noOffline = site();
    noOffline.delete("offline.html");
    expect(() => planPrecache(noOffline, "")).toThrow(/offline/);
  });
});
