// Ingest benchmark: for each accepted type, a ~15 MB file (just under upload.maxFileBytes) goes
// through sniff → extract → chunk in a fresh Node process, which reports wall time per stage and
// memory: peak RSS (getrusage maxRSS) above the RSS measured before the work started, which is
// what the work itself cost (the Node binary and the loaded code are not counted), and the heap
// (V8 heap + external buffers) sampled whenever the work yields. Both over-state what the work
// needs, since V8 lets garbage pile up when memory is plentiful; so each type is also re-run under
// `--max-old-space-size` of 16…128 MB to find the smallest old space it completes in
// (minOldSpaceMB): the figure to hold against a Worker's 128 MB per isolate, together with the
// external memory (the file's bytes: about its size).
//
//   node bench/ingest.mjs [kind[@MB] …]   prints a table, writes bench/results/ingest.json
//
// With no argument: every kind at ~15 MB, plus docx, xlsx and xls just under the sizes where
// Tala switches readers or refuses (see knowledgeLimits): docx@1.1 (mammoth), xlsx@4.5 (SheetJS),
// xls@2.4 (SheetJS; larger .xls files are refused).
//
// Generated files are cached in $TMPDIR/tala-bench (deterministic content). Figures depend on the
// machine; Node's V8 is close to workerd's but not the same.
import { build } from "esbuild";
import { Buffer } from "node:buffer";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";
import { TextEncoder } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = join(tmpdir(), "tala-bench");
const bundle = join(work, "knowledge.mjs");
const LIMIT = 15_728_640;
const TARGET = 15_000_000;
const kinds = ["txt", "md", "csv", "json", "xml", "pdf", "docx", "xlsx", "xls", "doc"];
const defaultRuns = [...kinds, "docx@1.1", "xlsx@4.5", "xls@2.4"];

// ---------------------------------------------------------------- deterministic content

function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const vocabulary = (
  "the customer order shipping refund policy warranty product service support account delivery invoice payment " +
  "return exchange size colour price discount coupon subscription plan monthly annual team member access security " +
  "password email notification settings profile address country region tax receipt tracking carrier warehouse stock " +
  "available within days business hours monday friday weekend holiday contact phone chat agent ticket priority issue " +
  "resolved pending escalated manager review feedback rating quality material cotton leather steel battery charger cable " +
  "installation manual guide step first second next finally please note that you your our we can will may must should " +
  "livraison remboursement garantie commande client produit service délai jours ouvrés été prix taille couleur"
).split(" ");
function sentence(r) {
  const n = 8 + Math.floor(r() * 14);
  const words = Array.from({ length: n }, () => vocabulary[Math.floor(r() * vocabulary.length)]);
  if (r() < 0.3) words.push(String(Math.floor(r() * 1000)));
  const s = words.join(" ");
  return s[0].toUpperCase() + s.slice(1) + ".";
}
const paragraph = (r) => Array.from({ length: 3 + Math.floor(r() * 5) }, () => sentence(r)).join(" ");

/** Repeats `piece(i)` until the text reaches `bytes` (UTF-8 ≈ chars here). */
function fill(bytes, piece) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const p = piece(i);
    parts.push(p);
    size += Buffer.byteLength(p);
  }
  return parts;
}

async function generate(kind, k, target) {
  const r = rng(42);
  const enc = (s) => new TextEncoder().encode(s);
  switch (kind) {
    case "txt":
      return enc(fill(target, () => paragraph(r) + "\n\n").join(""));
    case "md":
      return enc(
        fill(target, (i) =>
          i % 25 === 0
            ? `## Section ${i / 25}\n\n`
            : i % 7 === 0
              ? `| Item | Price | Notes |\n|---|---:|---|\n${Array.from({ length: 5 }, () => `| ${sentence(r).slice(0, 30)} | ${Math.floor(r() * 100)} | ${sentence(r)} |`).join("\n")}\n\n`
              : i % 5 === 0
                ? `- ${sentence(r)}\n- ${sentence(r)}\n- ${sentence(r)}\n\n`
                : paragraph(r) + "\n\n",
        ).join(""),
      );
    case "csv":
      return enc(
        "id,name,category,price,stock,supplier,country,description\n" +
          fill(target, (i) => `${i},"${sentence(r).slice(0, 24)}",cat-${i % 40},${(r() * 500).toFixed(2)},${Math.floor(r() * 900)},Supplier ${i % 300},FR,"${sentence(r)}"\n`).join(""),
      );
    case "json": {
      const items = fill(target, (i) =>
        JSON.stringify({ id: i, name: sentence(r).slice(0, 30), price: Math.round(r() * 50000) / 100, tags: ["a", "b"], supplier: { name: `S${i % 300}`, country: "FR" }, description: sentence(r) }) + ",",
      );
      return enc(`{"catalog":"bench","products":[${items.join("").slice(0, -1)}]}`);
    }
    case "xml":
      return enc(
        `<?xml version="1.0" encoding="UTF-8"?>\n<catalog>\n` +
          fill(target, (i) => `<product id="${i}"><name>${sentence(r).slice(0, 30)}</name><price currency="EUR">${(r() * 500).toFixed(2)}</price><description>${sentence(r)}</description></product>\n`).join("") +
          "</catalog>\n",
      );
    case "pdf": {
      // ~85 characters per line, 50 lines per page.
      const pages = [];
      let size = 0;
      while (size < target - 400_000) {
        const lines = Array.from({ length: 50 }, () => sentence(r).slice(0, 85));
        size += lines.reduce((n, l) => n + l.length + 8, 300);
        pages.push(lines);
      }
      return k.makePdf(pages);
    }
    case "doc":
      return k.makeDoc([{ text: fill(target - 50_000, () => paragraph(r) + "\r").join(""), compressed: true }]);
    case "docx":
      return scaleZip(target, async (n) => {
        const r2 = rng(42);
        const paragraphs = [];
        for (let i = 0; i < n; i++) paragraphs.push(i % 30 === 0 ? { text: `Chapter ${i / 30}`, heading: 1 } : { text: paragraph(r2) });
        return k.makeDocx(paragraphs);
      }, Math.ceil(target / 750));
    case "xlsx":
    case "xls":
      return scaleZip(target, async (n) => {
        const r2 = rng(42);
        const rows = [["id", "name", "category", "price", "stock", "description"]];
        for (let i = 0; i < n; i++) rows.push([i, sentence(r2).slice(0, 24), `cat-${i % 40}`, Math.round(r2() * 50000) / 100, Math.floor(r2() * 900), sentence(r2)]);
        // An xls sheet holds at most 65,536 rows: spread the rows over sheets.
        const sheets = {};
        const per = kind === "xls" ? 65_000 : 1_000_000;
        for (let s = 0; s * per < rows.length; s++) sheets[`Sheet${s + 1}`] = s === 0 ? rows.slice(0, per) : [rows[0], ...rows.slice(s * per, (s + 1) * per)];
        return k.makeWorkbook(sheets, kind === "xls" ? "biff8" : "xlsx");
      }, Math.ceil(target / 150));
  }
  throw new Error(kind);
}

/** Grows `make(n)` until its output is just under the upload limit (sizes scale ~linearly). */
async function scaleZip(target, make, start) {
  let n = start;
  let bytes = await make(n);
  for (let i = 0; i < 6 && (bytes.length < target * 0.97 || bytes.length > Math.min(LIMIT, target * 1.01)); i++) {
    n = Math.floor((n * target * 0.99) / bytes.length);
    bytes = await make(n);
  }
  while (bytes.length > LIMIT) bytes = await make((n = Math.floor(n * 0.97)));
  return bytes;
}

// ---------------------------------------------------------------- child: one measurement

async function child(run, path) {
  const kind = run.split("@")[0];
  const k = await import(pathToFileURL(bundle).href);
  const name = `bench.${kind}`;
  const bytes = new Uint8Array(readFileSync(path));
  globalThis.gc?.();
  const base = process.memoryUsage();
  const heap = { sniff: 0, extract: 0, chunk: 0 };
  const mem = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  // Samples run whenever the work yields (PDF pages, docx/xlsx streams); synchronous parsers are
  // covered by the peak RSS and by the small-heap run instead.
  let sampledPeak = 0;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, mem())), 5);
  const t0 = performance.now();
  const sniffed = k.sniffFile({ name, bytes });
  const t1 = performance.now();
  heap.sniff = mem();
  let document;
  try {
    document = await k.extractFile(sniffed, bytes);
  } catch (error) {
    if (error?.name !== "KnowledgeError") throw error;
    clearInterval(sampler);
    const refusedMs = Math.round(performance.now() - t0);
    process.stdout.write(JSON.stringify({ kind: run, fileMB: Math.round((statSync(path).size / 1048576) * 10) / 10, totalMs: refusedMs, refused: error.reason }));
    return;
  }
  const t2 = performance.now();
  heap.extract = mem();
  // As ingestFile does: the decoded text goes once extracted, each block once chunked.
  sniffed.text = undefined;
  const blockCount = document.blocks.length;
  const { chunks, truncated } = k.chunkBlocks(k.drainBlocks(document.blocks));
  const t3 = performance.now();
  heap.chunk = mem();
  clearInterval(sampler);
  sampledPeak = Math.max(sampledPeak, heap.sniff, heap.extract, heap.chunk);
  const chars = chunks.reduce((n, c) => n + c.content.length, 0);
  const maxRss = process.resourceUsage().maxRSS * 1024;
  const MB = (n) => Math.round((n / 1048576) * 10) / 10;
  process.stdout.write(
    JSON.stringify({
      kind: run,
      fileMB: MB(statSync(path).size),
      sniffMs: Math.round(t1 - t0),
      extractMs: Math.round(t2 - t1),
      chunkMs: Math.round(t3 - t2),
      totalMs: Math.round(t3 - t0),
      blocks: blockCount,
      chunks: chunks.length,
      chunkChars: chars,
      truncated: document.truncated || truncated,
      baselineRssMB: MB(base.rss),
      peakRssMB: MB(maxRss),
      peakRssDeltaMB: MB(maxRss - base.rss),
      heapAfterSniffMB: MB(heap.sniff - base.heapUsed - base.external),
      heapAfterExtractMB: MB(heap.extract - base.heapUsed - base.external),
      heapAfterChunkMB: MB(heap.chunk - base.heapUsed - base.external),
      peakHeapSampledMB: MB(sampledPeak - base.heapUsed - base.external),
    }),
  );
}

// ---------------------------------------------------------------- parent

async function main() {
  mkdirSync(work, { recursive: true });
  await build({
    entryPoints: [join(root, "bench/ingest-entry.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    mainFields: ["browser", "module", "main"],
    logLevel: "error",
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const k = await import(pathToFileURL(bundle).href);
  const wanted = process.argv.slice(2).length ? process.argv.slice(2) : defaultRuns;
  const results = [];
  for (const kind of wanted) {
    const [base, mb] = kind.split("@");
    const path = join(work, `bench.${kind}`);
    if (!existsSync(path)) writeFileSync(path, await generate(base, k, mb ? Number(mb) * 1_000_000 : TARGET));
    const run = (flags) =>
      spawnSync(process.execPath, [...flags, "--expose-gc", fileURLToPath(import.meta.url), "--child", kind, path], {
        encoding: "utf8",
        maxBuffer: 1 << 20,
      });
    const measured = run([]);
    let result;
    try {
      result = JSON.parse(measured.stdout);
    } catch {
      result = { kind, fileMB: Math.round((statSync(path).size / 1048576) * 10) / 10, error: (measured.stderr || "").split("\n").find((l) => /Error/.test(l)) ?? `exit ${measured.status}` };
    }
    // The smallest V8 old space (of these sizes) the work completes in: the heap it really needs,
    // garbage collected as it goes (an unconstrained run lets garbage pile up).
    const sizes = [16, 24, 32, 40, 48, 56, 64, 72, 80, 96, 112, 128];
    let lo = 0;
    let hi = sizes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (run([`--max-old-space-size=${sizes[mid]}`]).status === 0) hi = mid;
      else lo = mid + 1;
    }
    result.minOldSpaceMB = lo < sizes.length ? sizes[lo] : `>${sizes[sizes.length - 1]}`;
    results.push(result);
    console.error(`${kind}: done`);
  }
  const columns = ["kind", "fileMB", "totalMs", "extractMs", "chunkMs", "chunks", "truncated", "peakRssDeltaMB", "peakHeapSampledMB", "minOldSpaceMB", "refused", "error"];
  console.log(columns.join("\t"));
  for (const r of results) console.log(columns.map((c) => r[c] ?? "").join("\t"));
  const out = join(root, "bench/results/ingest.json");
  const previous = existsSync(out) ? JSON.parse(readFileSync(out, "utf8")) : { results: [] };
  const merged = [...previous.results.filter((p) => !wanted.includes(p.kind)), ...results].sort((a, b) => defaultRuns.indexOf(a.kind) - defaultRuns.indexOf(b.kind));
  writeFileSync(
    out,
    JSON.stringify(
      { node: process.version, cpu: execFileSync("uname", ["-m"]).toString().trim(), date: new Date().toISOString().slice(0, 10), uploadLimitBytes: LIMIT, results: merged },
      null,
      2,
    ) + "\n",
  );
}

if (process.argv[2] === "--child") await child(process.argv[3], process.argv[4]);
else await main();
