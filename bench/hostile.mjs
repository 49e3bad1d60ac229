// Hostile-file benchmark: every file of tests/fixtures/hostile-files.ts (one-line CSV,
// deep XML and JSON, honest and lying zip bombs, billion-page and cyclic PDFs, empty and truncated
// files…) goes through sniff → extract → chunk in a fresh Node process, as bench/ingest.mjs does,
// under `--max-old-space-size=128` (a Worker's isolate) with a wall-clock kill at 60 s. Recorded
// per file: the outcome (read, truncated, or the refusal's reason and message), wall time, peak
// RSS above the process's baseline, sampled heap. The same run measures honest small files
// (the corpus's `baseline-*`) and the machine's load average, so figures from different runs can be compared.
//
//   node bench/hostile.mjs [id …]          prints a table, writes bench/results/hostile.json
//   TALA_BENCH_ROOT=/path node bench/hostile.mjs   measures the extractors of another checkout
//                                                  (e.g. `git archive HEAD | tar -x -C /path`)
//
// Target: every file under 128 MB and 10 s. Generated files are cached in $TMPDIR/tala-bench/hostile.
import { build } from "esbuild";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const codeRoot = process.env.TALA_BENCH_ROOT ?? root;
const work = join(tmpdir(), "tala-bench", "hostile");
const OLD_SPACE_MB = 128;
const KILL_MS = 60_000;
const MB = (n) => Math.round((n / 1048576) * 10) / 10;

// ---------------------------------------------------------------- child: one file

async function child(bundle, path, name) {
  const k = await import(pathToFileURL(bundle).href);
  const bytes = new Uint8Array(readFileSync(path));
  globalThis.gc?.();
  const base = process.memoryUsage();
  const mem = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  let sampledPeak = mem();
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, mem())), 5);
  const t0 = performance.now();
  const result = { name };
  try {
    const sniffed = k.sniffFile({ name, bytes });
    const document = await k.extractFile(sniffed, bytes);
    sniffed.text = undefined;
    const { chunks, truncated } = k.chunkBlocks(k.drainBlocks(document.blocks));
    // No chunk: ingest and chat attachments refuse the file as having no text.
    const outcome = chunks.length === 0 ? "refused" : document.truncated || truncated ? "truncated" : "read";
    Object.assign(result, { outcome, chunks: chunks.length, ...(chunks.length ? {} : { reason: "no_text" }) });
  } catch (error) {
    if (error?.name !== "KnowledgeError") throw error;
    Object.assign(result, { outcome: "refused", reason: error.reason, message: error.message });
  }
  clearInterval(sampler);
  sampledPeak = Math.max(sampledPeak, mem());
  const maxRss = process.resourceUsage().maxRSS * 1024;
  Object.assign(result, {
    ms: Math.round(performance.now() - t0),
    peakRssDeltaMB: MB(maxRss - base.rss),
    peakHeapSampledMB: MB(sampledPeak - base.heapUsed - base.external),
  });
  process.stdout.write(JSON.stringify(result));
}

// ---------------------------------------------------------------- parent

async function bundleFrom(dir, outfile, withCorpus) {
  const contents = [
    `export { sniffFile } from "./worker/knowledge/sniff";`,
    `export { extractFile } from "./worker/knowledge/extract";`,
    `export { chunkBlocks, drainBlocks } from "./worker/knowledge/chunk";`,
    withCorpus ? `export { hostileCorpus, hostileIds } from "./tests/fixtures/hostile-files";` : "",
  ].join("\n");
  await build({
    stdin: { contents, resolveDir: dir, loader: "ts" },
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    mainFields: ["browser", "module", "main"],
    nodePaths: [join(root, "node_modules")],
    logLevel: "error",
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}

async function main() {
  mkdirSync(work, { recursive: true });
  const corpusBundle = join(work, "corpus.mjs");
  const codeBundle = join(work, codeRoot === root ? "code.mjs" : "code-other.mjs");
  await bundleFrom(root, corpusBundle, true);
  await bundleFrom(codeRoot, codeBundle, false);
  const corpus = await import(pathToFileURL(corpusBundle).href);
  const ids = process.argv.slice(2).length ? process.argv.slice(2) : corpus.hostileIds();
  const results = [];
  for (const id of ids) {
    const path = join(work, `${id}.bin`);
    const meta = join(work, `${id}.json`);
    if (!existsSync(path) || !existsSync(meta)) {
      const [built] = await corpus.hostileCorpus({ only: [id] });
      writeFileSync(path, built.bytes);
      writeFileSync(meta, JSON.stringify({ id, name: built.name, expect: built.expect, bytes: built.bytes.length }));
    }
    const file = JSON.parse(readFileSync(meta, "utf8"));
    const size = readFileSync(path).length;
    const started = performance.now();
    const run = spawnSync(process.execPath, [`--max-old-space-size=${OLD_SPACE_MB}`, "--expose-gc", fileURLToPath(import.meta.url), "--child", codeBundle, path, file.name], {
      encoding: "utf8",
      maxBuffer: 1 << 20,
      timeout: KILL_MS,
      killSignal: "SIGKILL",
    });
    let result;
    try {
      result = JSON.parse(run.stdout);
    } catch {
      const wall = Math.round(performance.now() - started);
      const oom = /heap out of memory|Reached heap limit/i.test(run.stderr ?? "");
      result = {
        name: file.name,
        outcome: run.signal === "SIGKILL" ? `killed after ${KILL_MS / 1000} s` : oom ? `out of memory (${OLD_SPACE_MB} MB old space)` : "crashed",
        ms: wall,
        error: (run.stderr || "").split("\n").find((l) => /Error|heap/.test(l))?.slice(0, 200),
      };
    }
    const expected = file.expect.refused ? `refused: ${file.expect.refused}` : file.expect.accepted ? "read" : "refused";
    const asExpected =
      file.expect.refused ? result.message === file.expect.refused : file.expect.accepted ? result.outcome === "read" || result.outcome === "truncated" : result.outcome === "refused";
    results.push({ id, fileMB: MB(size), expected, asExpected, ...result });
    console.error(`${id}: ${result.outcome} in ${result.ms} ms`);
  }
  const columns = ["id", "fileMB", "outcome", "ms", "peakRssDeltaMB", "peakHeapSampledMB", "asExpected"];
  console.log(columns.join("\t"));
  for (const r of results) console.log(columns.map((c) => r[c] ?? "").join("\t"));
  const out = join(root, "bench/results/hostile.json");
  const previous = existsSync(out) ? JSON.parse(readFileSync(out, "utf8")) : { results: [] };
  const machine = { node: process.version, cpu: execFileSync("uname", ["-m"]).toString().trim(), cores: cpus().length, loadAverage: loadavg().map((n) => Math.round(n * 100) / 100) };
  if (codeRoot !== root) {
    // Another checkout's figures (the code before a change) go beside the current ones.
    previous.before = { ...machine, date: new Date().toISOString(), codeRoot, results };
    writeFileSync(out, JSON.stringify(previous, null, 2) + "\n");
    return;
  }
  const merged = [...previous.results.filter((p) => !ids.includes(p.id)), ...results];
  writeFileSync(
    out,
    JSON.stringify(
      {
        ...(previous.before ? { before: previous.before } : {}),
        ...machine,
        date: new Date().toISOString(),
        oldSpaceMB: OLD_SPACE_MB,
        killAfterMs: KILL_MS,
        targets: { peakMB: 128, ms: 10_000 },
        results: merged,
      },
      null,
      2,
    ) + "\n",
  );
  const missed = results.filter((r) => !r.asExpected || !(r.ms < 10_000) || !(r.peakRssDeltaMB < 128));
  if (missed.length) {
    console.error(`off target: ${missed.map((r) => r.id).join(", ")}`);
    process.exitCode = 1;
  }
}

if (process.argv[2] === "--child") await child(process.argv[3], process.argv[4], process.argv[5]);
else await main();
