#!/usr/bin/env node
// The widget's weight on a visitor's connection: builds widget.js (the loader) and widget-core.js
// (everything the open widget needs, Preact included) into a temporary folder and prints their
// gzip sizes (zlib level 9, as gzip-size / size-limit measure) against the budgets of the issue
// "The embeddable widget": 3 KB and 15 KB. Competitors' bundles are measured only when their npm
// package happens to be installed; otherwise the reported figures are printed, labelled as
// such. Writes bench/results/widget-size.json.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { buildPublic } from "../widget-sdk/build.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const KB = 1024;
const gzip = (buf) => gzipSync(buf, { level: 9 }).length;
const brotli = (buf) => brotliCompressSync(buf).length;

const out = mkdtempSync(join(tmpdir(), "tala-widget-size-"));
await buildPublic(out);
const ours = [
  { name: "widget.js (loader)", file: "widget.js", budgetKb: 3 },
  { name: "widget-core.js (open widget)", file: "widget-core.js", budgetKb: 15 },
].map((w) => {
  const buf = readFileSync(join(out, w.file));
  const gz = gzip(buf);
  return { ...w, rawBytes: buf.length, gzipBytes: gz, brotliBytes: brotli(buf), withinBudget: gz <= w.budgetKb * KB };
});
rmSync(out, { recursive: true, force: true });

// The figures for the alternatives (gzip KB, in this order); measured instead when installed.
const competitors = [
  { name: "deep-chat", pkg: "deep-chat", reportedKb: 110 },
  { name: "Botpress webchat", pkg: "@botpress/webchat", reportedKb: 180 },
  { name: "Typebot", pkg: "@typebot.io/js", reportedKb: 196 },
  { name: "Flowise embed", pkg: "flowise-embed", reportedKb: 284 },
  { name: "n8n chat", pkg: "@n8n/chat", reportedKb: 546 },
].map((c) => {
  const dir = join(root, "node_modules", c.pkg);
  if (!existsSync(join(dir, "package.json"))) return { ...c, measuredKb: null, source: "reported in the issue, not measured here" };
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const entry = [pkg.unpkg, pkg.jsdelivr, pkg.browser, pkg.module, pkg.main].find((e) => typeof e === "string" && existsSync(join(dir, e)));
  if (!entry) return { ...c, measuredKb: null, source: "installed, no single browser bundle found: reported figure" };
  return { ...c, measuredKb: +(gzip(readFileSync(join(dir, entry))) / KB).toFixed(1), source: `measured: ${c.pkg}/${entry} (entry file only)` };
});

const rows = [
  ...ours.map((w) => [w.name, (w.gzipBytes / KB).toFixed(2), `≤ ${w.budgetKb}`, w.withinBudget ? "yes" : "NO", "measured (this build)"]),
  ...competitors.map((c) => [c.name, c.measuredKb === null ? `${c.reportedKb}` : `${c.measuredKb}`, "", "", c.source]),
];
const head = ["bundle", "gzip KB", "budget KB", "within", "source"];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (r) => r.map((c, i) => String(c).padEnd(widths[i])).join("  ");
console.log(line(head));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const r of rows) console.log(line(r));
const total = ours.reduce((s, w) => s + w.gzipBytes, 0);
console.log(`\nloader + core: ${(total / KB).toFixed(2)} KB gzip (${(ours.reduce((s, w) => s + w.brotliBytes, 0) / KB).toFixed(2)} KB brotli)`);

mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(
  join(root, "bench/results/widget-size.json"),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), method: "zlib gzip level 9", widget: ours, competitors }, null, 2)}\n`,
);
if (ours.some((w) => !w.withinBudget)) {
  console.error("over budget");
  process.exit(1);
}
