#!/usr/bin/env node
// Page weight of the built marketing site (builds nothing: run `node scripts/build.mjs` first).
// For each marketing page in dist/public: HTML, CSS and JavaScript bytes, raw and gzip (level 9),
// inline and referenced same-origin files alike. Budget: ≤ 30 KB gzip of JavaScript per page.
// Prints a table and writes bench/results/page-weight.json.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { Buffer } from "node:buffer";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist/public");
const JS_BUDGET_GZIP = 30 * 1024;
if (!existsSync(join(dist, "index.html"))) {
  console.error("dist/public/index.html is missing: run `node scripts/build.mjs` first");
  process.exit(1);
}

const gz = (text) => gzipSync(Buffer.from(text), { level: 9 }).length;
const htmlFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? htmlFiles(join(dir, e.name)) : e.name.endsWith(".html") ? [join(dir, e.name)] : [],
  );
/** Reads a same-origin file a page references (`/assets/x.css`), or "" when it is not in dist. */
const referenced = (url) => {
  if (!url.startsWith("/") || url.startsWith("//")) return "";
  const file = join(dist, url.split(/[?#]/)[0]);
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};

const pages = [];
for (const file of htmlFiles(dist).sort()) {
  const name = relative(dist, file).split(sep).join("/");
  if (name === "app.html") continue; // the dashboard shell, not a marketing page
  const html = readFileSync(file, "utf8");
  const inlineJs = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join("\n");
  const externalJs = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => referenced(m[1])).join("\n");
  const inlineCss = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join("\n");
  const externalCss = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => referenced(m[1])).join("\n");
  const js = inlineJs + externalJs;
  const css = inlineCss + externalCss;
  pages.push({
    page: name,
    htmlBytes: Buffer.byteLength(html),
    htmlGzip: gz(html),
    cssGzip: css ? gz(css) : 0,
    jsBytes: Buffer.byteLength(js),
    jsGzip: js ? gz(js) : 0,
    externalFiles: (externalJs ? 1 : 0) + (externalCss ? 1 : 0),
    // What a first visit downloads for the page: the HTML (inline CSS and JS included) plus referenced files.
    totalGzip: gz(html) + (externalJs ? gz(externalJs) : 0) + (externalCss ? gz(externalCss) : 0),
  });
}

const overBudget = pages.filter((p) => p.jsGzip > JS_BUDGET_GZIP);
const result = {
  measuredAt: new Date().toISOString(),
  budget: { jsGzipBytesPerPage: JS_BUDGET_GZIP },
  maxJsGzip: Math.max(...pages.map((p) => p.jsGzip)),
  maxTotalGzip: Math.max(...pages.map((p) => p.totalGzip)),
  overBudget: overBudget.map((p) => p.page),
  pages,
};
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/page-weight.json"), `${JSON.stringify(result, null, 2)}\n`);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log("page".padEnd(22), "html gz".padStart(9), "css gz".padStart(9), "js gz".padStart(9), "total gz".padStart(10));
for (const p of pages) {
  console.log(p.page.padEnd(22), kb(p.htmlGzip).padStart(9), kb(p.cssGzip).padStart(9), kb(p.jsGzip).padStart(9), kb(p.totalGzip).padStart(10));
}
console.log(`\nmax JavaScript per page: ${kb(result.maxJsGzip)} gzip (budget ${kb(JS_BUDGET_GZIP)}); max page total: ${kb(result.maxTotalGzip)} gzip`);
console.log("wrote bench/results/page-weight.json");
if (overBudget.length) {
  console.error(`over the JavaScript budget: ${result.overBudget.join(", ")}`);
  process.exit(1);
}
