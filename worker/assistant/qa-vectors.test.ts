import { describe, expect, it } from "vitest";
import { qaLimits } from "../../contract";
import { shopPairs, shopQuestions } from "../../tests/fixtures/qa-shop/evaluate";
import { HashingEmbeddings } from "../knowledge/embeddings";
import { QaIndex } from "./qa-match";
import { QaVectorRows, RESCORE_ROWS } from "./qa-vectors";

/** A seeded generator: the same vectors every run. */
function generator(seed: number) {
  const uniform = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) + 0.5) / 2 ** 32;
  const gauss = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  const unit = (v: Float32Array) => {
    let norm = 0;
    for (const x of v) norm += x * x;
    return v.map((x) => x / Math.sqrt(norm));
  };
  const random = (d: number) => unit(Float32Array.from({ length: d }, gauss));
  /** A unit vector made of the given vectors in the given shares. */
  const mix = (parts: [number, Float32Array][]) => {
    const out = new Float32Array(parts[0]![1].length);
    for (const [w, v] of parts) for (let i = 0; i < out.length; i++) out[i]! += w * v[i]!;
    return unit(out);
  };
  return { uniform, random, mix };
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** The exact scan the prefilter stands in for: the row with the highest cosine. */
function exactTop(rows: readonly Float32Array[], query: Float32Array) {
  let best = -1;
  let score = -2;
  rows.forEach((row, r) => {
    const s = dot(row, query);
    if (s > score) [best, score] = [r, s];
  });
  return { row: best, score };
}

describe("curated answers' vectors: sketches, then the cosine of the closest", () => {
  it("finds the exact scan's nearest phrasing among 15,000 clustered vectors (recall)", () => {
    const g = generator(11);
    const d = 128;
    // Phrasings of one shop read alike: a shared direction, a topic's, and their own.
    const mean = g.random(d);
    const topics = Array.from({ length: 300 }, () => g.random(d));
    const rows = Array.from({ length: 15_000 }, (_, i) => g.mix([[0.6, mean], [0.6, topics[i % topics.length]!], [0.53, g.random(d)]]));
    const index = new QaVectorRows({ maxRows: rows.length, maxBytes: 64 * 1024 * 1024 });
    rows.forEach((row, r) => index.add(r, row, true));
    let found = 0;
    const queries = 50;
    for (let q = 0; q < queries; q++) {
      // A visitor's question close to one phrasing (cosine 0.85 to 0.99), among near neighbours.
      const target = rows[Math.floor(g.uniform() * rows.length)]!;
      const closeness = 0.85 + 0.14 * g.uniform();
      const query = g.mix([[closeness, target], [Math.sqrt(1 - closeness ** 2), g.random(d)]]);
      const exact = exactTop(rows, query);
      const near = index.nearest(query);
      expect(near.length).toBe(RESCORE_ROWS);
      const hit = near.find((n) => n.owner === exact.row);
      if (hit) found++;
      // The cosine on one byte a coordinate is the exact one to within 2e-3.
      if (hit) expect(Math.abs(hit.score - exact.score)).toBeLessThan(2e-3);
    }
    expect(found / queries).toBeGreaterThanOrEqual(0.98);
  }, 30_000);

  it("gives each labelled question the exact scan's nearest pair (test embedder)", async () => {
    const embedder = new HashingEmbeddings(256);
    const texts = [...new Set([...shopQuestions.map((q) => q.q), ...shopPairs.flatMap((p) => [p.question, ...p.variants])])];
    const vectors = new Map((await embedder.embed(texts)).map((v, i) => [texts[i]!, v]));
    const pairs = shopPairs.map((p) => ({ ...p, vectors: [p.question, ...p.variants].map((t) => vectors.get(t)!) }));
    const index = new QaIndex(pairs);
    for (const { q } of shopQuestions) {
      const query = vectors.get(q)!;
      const exact = Math.max(...pairs.map((p) => Math.max(...p.vectors.map((v) => dot(v, query)))));
      const [top] = index.vectorTop(query);
      if (exact <= 0) continue; // no phrasing shares a word: any pair is as close
      // The nearest pair by the sketches and the bytes is the exact scan's (one of them, on a tie).
      const nearest = pairs.filter((p) => p.vectors.some((v) => dot(v, query) > exact - 1e-6)).map((p) => p.id);
      expect(nearest, q).toContain(top?.qaId);
      expect(top?.score, q).toBeCloseTo(exact, 2);
    }
  });

  it("reuses a removed row and refuses a vector of another length", () => {
    const g = generator(3);
    const index = new QaVectorRows({ maxRows: 4, maxBytes: 1 << 20 });
    const a = index.add(0, g.random(8), true)!;
    index.add(1, g.random(8), false);
    expect(index.add(2, g.random(16), true)).toBeNull();
    index.remove(a.row);
    expect(index.count).toBe(1);
    expect(index.add(3, g.random(8), true)?.row).toBe(a.row);
  });

  it("when full, gives a question a variant's row and refuses a variant", () => {
    const g = generator(5);
    const index = new QaVectorRows({ maxRows: 2, maxBytes: 1 << 20 });
    index.add(0, g.random(8), true);
    const variant = index.add(1, g.random(8), false)!;
    expect(index.add(2, g.random(8), false)).toBeNull();
    expect(index.add(3, g.random(8), true)).toEqual({ row: variant.row, evicted: 1 });
    expect(index.add(4, g.random(8), true)).toBeNull();
  });

  it("keeps long vectors within the memory bound", () => {
    const g = generator(9);
    const index = new QaVectorRows({ maxRows: qaLimits.maxVectorPhrasings, maxBytes: 64 * 1024 });
    let kept = 0;
    for (let i = 0; i < 200; i++) if (index.add(i, g.random(1024), true)) kept++;
    expect(kept).toBeLessThan(200);
    expect(index.bytes()).toBeLessThanOrEqual(64 * 1024);
  });
});
