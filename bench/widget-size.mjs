#!/usr/bin/env node
// The widget's weight on a visitor's connection: builds widget.js (the loader), widget-core.js
// (the open widget, Preact and the English strings included) and the chunks the core loads on
// demand (widget-chunks/: fr, ar, sse, pow, visitor, files, handoff, blocked, lead, lead-fr, lead-ar) into a temporary folder, and prints
// their gzip sizes (zlib level 9, as gzip-size / size-limit measure, each file on its own, as a
// browser fetches them) against the budgets of the issue "The embeddable widget": the loader
// ≤ 3 KB, and for every kind of visitor the total of what their open widget loads ≤ 15 KB
// (15,360 B). Competitors' bundles are measured only when their npm package happens to be
// installed; otherwise the reported figures are printed, labelled as such.
// Writes bench/results/widget-size.json.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { buildPublic, chunkNames } from "../widget-sdk/build.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const KB = 1024;
const OPEN_BUDGET = 15 * KB;
const LOADER_BUDGET = 3 * KB;
const gzip = (buf) => gzipSync(buf, { level: 9 }).length;
const brotli = (buf) => brotliCompressSync(buf).length;

const out = mkdtempSync(join(tmpdir(), "tala-widget-size-"));
const { files } = await buildPublic(out);
const measure = (file) => {
  const buf = readFileSync(join(out, file));
  return { file, rawBytes: buf.length, gzipBytes: gzip(buf), brotliBytes: brotli(buf) };
};
const loader = { name: "widget.js (loader)", ...measure("widget.js"), budgetBytes: LOADER_BUDGET };
loader.withinBudget = loader.gzipBytes <= LOADER_BUDGET;
const core = { name: "widget-core.js", ...measure("widget-core.js") };
const chunks = Object.fromEntries(chunkNames.map((name) => [name, { name, ...measure(files[name]) }]));
rmSync(out, { recursive: true, force: true });

/**
 * What each kind of visitor's open widget loads: the core, plus the chunks their case needs.
 * `sse` loads only when the socket cannot connect, `files` at the first attachment (sites that
 * allow them): listed as kinds of their own, and in the worst combination. `handoff` loads when
 * the visitor asks for a person (or a person writes to them), beside their language's chunk (which
 * carries the handoff's French or Arabic texts) and, when the socket is blocked, the SSE reader
 * (its event stream uses it): kinds of their own, held to the budget like the others. `blocked`
 * loads when the chat cannot go on (a final refusal, a refused visitor token). `lead` loads
 * when the owner's lead form is to show (before the first message, after the N-th, under an answer
 * offering it, or for the handoff's e-mail ask), with `lead-fr` / `lead-ar` for French and Arabic
 * visitors (beside their language's chunk): a visitor who leaves their details. Only the
 * worst combination (every feature at once, not a kind of visitor) is reported without failing.
 */
const kinds = [
  { kind: "anonymous, English", chunks: [] },
  { kind: "anonymous, French", chunks: ["fr"] },
  { kind: "anonymous, Arabic", chunks: ["ar"] },
  { kind: "verified visitor (Conversations opened), English", chunks: ["visitor"] },
  { kind: "asked for a proof-of-work, English", chunks: ["pow"] },
  { kind: "socket blocked (SSE fallback), English", chunks: ["sse"] },
  { kind: "sends an attachment, English", chunks: ["files"] },
  { kind: "talks to a person, English", chunks: ["handoff"] },
  { kind: "talks to a person, French", chunks: ["fr", "handoff"] },
  { kind: "talks to a person, Arabic", chunks: ["ar", "handoff"] },
  { kind: "talks to a person, socket blocked (event stream), English", chunks: ["handoff", "sse"] },
  { kind: "cannot go on (paused, over a limit, switched off, token refused), English", chunks: ["blocked"] },
  { kind: "cannot go on, Arabic", chunks: ["ar", "blocked"] },
  { kind: "leaves their details, English", chunks: ["lead"] },
  { kind: "leaves their details, French", chunks: ["fr", "lead", "lead-fr"] },
  { kind: "leaves their details, Arabic", chunks: ["ar", "lead", "lead-ar"] },
  { kind: "worst case: Arabic, verified, proof-of-work, SSE, attachment, a person, blocked, their details", chunks: ["ar", "visitor", "pow", "sse", "files", "handoff", "blocked", "lead", "lead-ar"], reported: true },
].map((k) => {
  const totalGzipBytes = core.gzipBytes + k.chunks.reduce((s, c) => s + chunks[c].gzipBytes, 0);
  return { ...k, totalGzipBytes, budgetBytes: OPEN_BUDGET, withinBudget: totalGzipBytes <= OPEN_BUDGET, overBy: Math.max(0, totalGzipBytes - OPEN_BUDGET) };
});

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

const table = (head, rows) => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => String(c).padEnd(widths[i])).join("  ");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
  console.log("");
};
table(
  ["file", "gzip B", "brotli B", "raw B"],
  [loader, core, ...Object.values(chunks)].map((f) => [f.file, f.gzipBytes, f.brotliBytes, f.rawBytes]),
);
table(
  ["visitor", "loads", "gzip B", "budget B", "within"],
  [
    ["(snippet) loader", "widget.js", loader.gzipBytes, LOADER_BUDGET, loader.withinBudget ? "yes" : "NO"],
    ...kinds.map((k) => [k.kind, ["core", ...k.chunks].join(" + "), k.totalGzipBytes, OPEN_BUDGET, k.withinBudget ? "yes" : `NO (+${k.overBy})${k.reported ? ", reported" : ""}`]),
  ],
);
table(
  ["alternative", "gzip KB", "source"],
  competitors.map((c) => [c.name, c.measuredKb ?? c.reportedKb, c.source]),
);

mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(
  join(root, "bench/results/widget-size.json"),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), method: "zlib gzip level 9, each file on its own", loader, core, chunks, kinds, competitors }, null, 2)}\n`,
);
// Every kind of visitor is held to the budget; the worst combination (reported) is not a kind.
const over = kinds.filter((k) => !k.reported && !k.withinBudget);
if (!loader.withinBudget || over.length) {
  if (!loader.withinBudget) console.error(`over budget: the loader, ${loader.gzipBytes} B gzip > ${LOADER_BUDGET} B`);
  for (const k of over) console.error(`over budget: ${k.kind} (${["core", ...k.chunks].join(" + ")}) ${k.totalGzipBytes} B gzip > ${OPEN_BUDGET} B, by ${k.overBy} B`);
  process.exit(1);
}
