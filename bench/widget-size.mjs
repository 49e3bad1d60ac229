#!/usr/bin/env node
// The widget's weight on a visitor's connection: builds widget.js (the loader), widget-core.js
// (the open widget, Preact and the English strings included) and the chunks the core loads on
// demand (widget-chunks/: fr, ar, sse, pow, visitor, files, handoff, handoff-fr, handoff-ar, blocked,
// lead-en, lead-fr, lead-ar: the lead form with one language's texts each) into a temporary folder, and prints
// their gzip sizes (zlib level 9, as gzip-size / size-limit measure, each file on its own, as a
// browser fetches them) against the budgets of the issue "The embeddable widget": the loader
// ≤ 3 KB, and what the open widget needs ≤ 15 KB (15,360 B): the kinds marked `open` below fail
// the bench over it; the kinds that load a lazy chunk are reported with their totals.
// Competitors' bundles are measured only when their npm package happens to be installed;
// otherwise the reported figures are printed, labelled as such.
// Writes bench/results/widget-size.json. `TALA_BENCH_ROOT=<checkout>` also runs that checkout's own
// bench (a copy of another commit, with node_modules reachable) and stores its kinds as `before`,
// with each kind's difference, matched by the kind's name.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
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
 * What each kind of visitor loads, and which totals the budget holds. The budget is "everything the
 * open widget needs: ≤ 15 KB gzip", and what does not fit goes in a lazy chunk (the lead form's rule is
 * the same: "lazy-loaded like the other chunks if needed"). So the kinds marked `open` are what every
 * visitor loads to open the widget, whatever the owner turned on: the core and their language's chunk
 * (English: none; fr; ar). They must fit: over, the bench fails. The others load a lazy chunk, for a
 * feature the owner turned on (the lead form, at open when it shows before the first message, or
 * later; a person taking over), for something rare the visitor does (attaches a file, opens their
 * Conversations, comes back to a conversation that sent a lead, meets a refusal) or when the network
 * forces it (the SSE reader when the socket fails, the solver when the server asks for a proof):
 * `reported`, with their totals and how far over the budget's figure they are, never failing the bench.
 */
const open = (kind, chunks) => ({ kind, chunks, open: true });
const lazy = (kind, chunks) => ({ kind, chunks, open: false });
const kinds = [
  open("anonymous, English", []),
  open("anonymous, French", ["fr"]),
  open("anonymous, Arabic", ["ar"]),
  lazy("shown the owner's form before the first message, English", ["lead-en"]),
  lazy("shown the owner's form before the first message, French", ["fr", "lead-fr"]),
  lazy("shown the owner's form before the first message, Arabic", ["ar", "lead-ar"]),
  lazy("verified visitor (Conversations opened), English", ["visitor"]),
  lazy("asked for a proof-of-work, English", ["pow"]),
  lazy("socket blocked (SSE fallback), English", ["sse"]),
  lazy("sends an attachment, English", ["files"]),
  lazy("talks to a person, English", ["handoff"]),
  lazy("talks to a person, French", ["fr", "handoff", "handoff-fr"]),
  lazy("talks to a person, Arabic", ["ar", "handoff", "handoff-ar"]),
  lazy("talks to a person, socket blocked (event stream), English", ["handoff", "sse"]),
  lazy("cannot go on (paused, over a limit, switched off, token refused), English", ["blocked"]),
  lazy("cannot go on, Arabic", ["ar", "blocked"]),
  lazy("offered the form later (after the N-th message, under an answer, a person's ask), English", ["lead-en"]),
  lazy("offered the form later, Arabic", ["ar", "lead-ar"]),
  lazy("back to a conversation that sent a lead (its thank-you line), English", ["lead-en"]),
  lazy("worst case: Arabic, verified, proof-of-work, SSE, attachment, a person, blocked, their details", ["ar", "visitor", "pow", "sse", "files", "handoff", "handoff-ar", "blocked", "lead-ar"]),
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
  ["visitor", "counts", "loads", "gzip B", "budget B", "within"],
  [
    ["(snippet) loader", "budget", "widget.js", loader.gzipBytes, LOADER_BUDGET, loader.withinBudget ? "yes" : "NO"],
    ...kinds.map((k) => [k.kind, k.open ? "open" : "reported", ["core", ...k.chunks].join(" + "), k.totalGzipBytes, OPEN_BUDGET, k.withinBudget ? "yes" : `NO (+${k.overBy})`]),
  ],
);
table(
  ["alternative", "gzip KB", "source"],
  competitors.map((c) => [c.name, c.measuredKb ?? c.reportedKb, c.source]),
);

/** Another checkout's figures, by its own bench (its kinds and files as they were there). */
function measureBefore(dir) {
  // Without TALA_BENCH_ROOT: the other checkout's bench must not measure a `before` of its own (it would start itself again, without end).
  const { TALA_BENCH_ROOT: _root, ...env } = process.env;
  const run = spawnSync(process.execPath, [join(dir, "bench/widget-size.mjs")], { cwd: dir, encoding: "utf8", env });
  const file = join(dir, "bench/results/widget-size.json");
  if (!existsSync(file)) throw new Error(`widget-size: ${dir} wrote no results: ${run.stderr}`);
  const b = JSON.parse(readFileSync(file, "utf8"));
  // The checkout's commit when it is a git one, else its folder.
  const commit = spawnSync("git", ["-C", dir, "rev-parse", "HEAD"], { encoding: "utf8" }).stdout?.trim();
  return { root: commit || dir, core: b.core.gzipBytes, kinds: b.kinds.map((k) => ({ kind: k.kind, open: k.open, chunks: k.chunks, totalGzipBytes: k.totalGzipBytes })) };
}
const before = process.env.TALA_BENCH_ROOT ? measureBefore(process.env.TALA_BENCH_ROOT) : undefined;
if (before) {
  table(
    ["visitor", "counts", "before B", "after B", "change B"],
    kinds.map((k) => {
      const b = before.kinds.find((x) => x.kind === k.kind);
      return [k.kind, k.open ? "open" : "reported", b?.totalGzipBytes ?? "-", k.totalGzipBytes, b ? k.totalGzipBytes - b.totalGzipBytes : "-"];
    }),
  );
}

mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(
  join(root, "bench/results/widget-size.json"),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), method: "zlib gzip level 9, each file on its own", loadAverage: loadavg().map((l) => +l.toFixed(2)), loader, core, chunks, kinds, competitors, ...(before ? { before } : {}) }, null, 2)}\n`,
);
// The open widget is held to the budget; the lazy kinds are reported only.
const over = kinds.filter((k) => k.open && !k.withinBudget);
if (!loader.withinBudget || over.length) {
  if (!loader.withinBudget) console.error(`over budget: the loader, ${loader.gzipBytes} B gzip > ${LOADER_BUDGET} B`);
  for (const k of over) console.error(`over budget (open widget): ${k.kind} (${["core", ...k.chunks].join(" + ")}) ${k.totalGzipBytes} B gzip > ${OPEN_BUDGET} B, by ${k.overBy} B`);
  process.exit(1);
}
