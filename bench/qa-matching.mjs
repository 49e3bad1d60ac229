// Curated answers' matching: the hub's matcher (worker/assistant/qa-match.ts, bundled with esbuild)
// over the labelled shop set (tests/fixtures/qa-shop): at each strictness, lexical only and with
// the deterministic test embedder (HashingEmbeddings), how many questions got a wrong pair (goal at
// the default: 0) and how many paraphrases got theirs; then what matching adds to a turn at 5,000
// pairs (3 phrasings each): the index build (when an object starts, or after an import), one
// pair added, edited or removed in place, and one question's match, p50/p99, lexical and with
// 256- and 1024-dimension vectors (sketch prefilter, then the cosine of the closest rows), the
// vectors' memory, and the machine's load while it ran.
//
//   node bench/qa-matching.mjs   prints a table, writes bench/results/qa-matching.json
import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = join(tmpdir(), "tala-bench");
mkdirSync(work, { recursive: true });
const bundle = join(work, "qa-matching.mjs");
const entry = join(work, "qa-matching-entry.ts");
writeFileSync(
  entry,
  `export { QaIndex, qaThresholds } from ${JSON.stringify(join(root, "worker/assistant/qa-match.ts"))};
export { evaluate, shopPairs, shopQuestions } from ${JSON.stringify(join(root, "tests/fixtures/qa-shop/evaluate.ts"))};
export { HashingEmbeddings } from ${JSON.stringify(join(root, "worker/knowledge/embeddings.ts"))};`,
);
await build({ entryPoints: [entry], bundle: true, format: "esm", platform: "node", outfile: bundle, logLevel: "error" });
const { QaIndex, qaThresholds, evaluate, shopPairs, shopQuestions, HashingEmbeddings } = await import(pathToFileURL(bundle).href);

const embedder = new HashingEmbeddings(256);
const texts = [...new Set([...shopQuestions.map((q) => q.q), ...shopPairs.flatMap((p) => [p.question, ...p.variants])])];
const vectors = new Map((await embedder.embed(texts)).map((v, i) => [texts[i], v]));
const withVectors = shopPairs.map((p) => ({ ...p, vectors: [p.question, ...p.variants].map((t) => vectors.get(t)) }));

const set = { pairs: shopPairs.length, questions: shopQuestions.length, kinds: {} };
for (const q of shopQuestions) set.kinds[q.kind] = (set.kinds[q.kind] ?? 0) + 1;
const accuracy = [];
for (const [mode, index, embed] of [
  ["lexical", new QaIndex(shopPairs), undefined],
  ["test embedder", new QaIndex(withVectors), (t) => vectors.get(t)],
]) {
  for (const strictness of ["strict", "balanced", "loose"]) {
    const e = evaluate(index, strictness, embed);
    accuracy.push({ mode, strictness, thresholds: qaThresholds[strictness], wrongAnswers: e.wrong.length, paraphrasesMatched: e.paraphrasesMatched, paraphrases: e.paraphrases, wrong: e.wrong });
  }
}

// ---- time at 5,000 pairs: generated pairs sharing a vocabulary, as a big shop's would.
function rng(seed) {
  return () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
const random = rng(42);
const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x${"abcdefghij"[i % 10]}`);
const pick = () => words[Math.floor(random() ** 2 * words.length)];
const phrase = () => `how do I ${Array.from({ length: 3 + Math.floor(random() * 5) }, pick).join(" ")}?`;
const big = Array.from({ length: 5000 }, (_, i) => ({ id: `p${i}`, mode: i % 2 ? "exact" : "guide", question: phrase(), variants: [phrase(), phrase()] }));
const questions = Array.from({ length: 2000 }, (_, i) => (i % 2 ? phrase() : big[i].question.replace("how do I", "can I")));
const pct = (xs, p) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
function time(index, vectorOf) {
  for (const q of questions.slice(0, 200)) index.match(q, "balanced", vectorOf?.(q));
  const ms = questions.map((q) => {
    const v = vectorOf?.(q);
    const t0 = performance.now();
    index.match(q, "balanced", v);
    return performance.now() - t0;
  });
  return { p50: Number(pct(ms, 50).toFixed(3)), p99: Number(pct(ms, 99).toFixed(3)) };
}
const load = [loadavg()[0]];
const t0 = performance.now();
const bigIndex = new QaIndex(big);
const buildMs = performance.now() - t0;

// One pair changed in place, as the owner's add, edit and delete do (the hub's HubQa.written).
const changeMs = { add: [], edit: [], remove: [] };
for (let i = 0; i < 100; i++) {
  const pair = big[(i * 37) % big.length];
  let t = performance.now();
  bigIndex.upsert({ ...pair, question: phrase() });
  changeMs.edit.push(performance.now() - t);
  t = performance.now();
  bigIndex.remove(pair.id);
  changeMs.remove.push(performance.now() - t);
  t = performance.now();
  bigIndex.upsert(pair);
  changeMs.add.push(performance.now() - t);
}
const p50 = (xs) => Number(pct(xs, 50).toFixed(2));

const bigTexts = big.flatMap((p) => [p.question, ...p.variants]);
async function withVectorsOf(dimensions) {
  const embedder = new HashingEmbeddings(dimensions);
  const phrasingVectors = await embedder.embed(bigTexts);
  const qVectors = new Map((await embedder.embed(questions)).map((v, i) => [questions[i], v]));
  let at = 0;
  const t = performance.now();
  const index = new QaIndex(big.map((p) => ({ ...p, vectors: [phrasingVectors[at++], phrasingVectors[at++], phrasingVectors[at++]] })));
  const build = performance.now() - t;
  const lexicalAlone = time(index);
  const match = time(index, (q) => qVectors.get(q));
  load.push(loadavg()[0]);
  return { dimensions, vectorRows: index.vectorRows, vectorBytes: index.vectorBytes(), indexBuildMs: Number(build.toFixed(1)), lexicalMatchMs: lexicalAlone, matchMs: match };
}
const lexicalMatchMs = time(bigIndex);
const vectors256 = await withVectorsOf(256);
const vectors1024 = await withVectorsOf(1024);
load.push(loadavg()[0]);
const turn = {
  pairs: big.length,
  phrasings: bigTexts.length,
  indexBuildMs: Number(buildMs.toFixed(1)),
  changeInPlaceMs: { add: p50(changeMs.add), edit: p50(changeMs.edit), remove: p50(changeMs.remove) },
  lexicalMatchMs,
  withVectors: [vectors256, vectors1024],
  loadAverage1m: load.map((l) => Number(l.toFixed(2))),
};

console.log(`set: ${set.pairs} pairs, ${set.questions} questions ${JSON.stringify(set.kinds)}`);
console.log("mode           strictness  wrong  paraphrases matched");
for (const a of accuracy) console.log(`${a.mode.padEnd(14)} ${a.strictness.padEnd(10)} ${String(a.wrongAnswers).padStart(6)}  ${a.paraphrasesMatched}/${a.paraphrases}`);
console.log(`at 5,000 pairs (${turn.phrasings} phrasings): index build ${turn.indexBuildMs} ms; in place: add ${turn.changeInPlaceMs.add} ms, edit ${turn.changeInPlaceMs.edit} ms, remove ${turn.changeInPlaceMs.remove} ms (p50)`);
console.log(`  lexical match p50 ${lexicalMatchMs.p50} ms p99 ${lexicalMatchMs.p99} ms`);
for (const v of turn.withVectors) {
  console.log(`  ${v.dimensions}-d vectors (${v.vectorRows} rows, ${(v.vectorBytes / 2 ** 20).toFixed(1)} MiB, build ${v.indexBuildMs} ms): match p50 ${v.matchMs.p50} ms p99 ${v.matchMs.p99} ms (same index, lexical alone: p50 ${v.lexicalMatchMs.p50} ms)`);
}
console.log(`  load average (1 min) during the run: ${turn.loadAverage1m.join(", ")}`);
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/qa-matching.json"), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, set, accuracy, turn }, null, 2)}\n`);
