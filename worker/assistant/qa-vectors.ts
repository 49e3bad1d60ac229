/**
 * The curated answers' phrasing vectors as the matcher scans them (qa-match.ts): pure, no I/O.
 *
 * A full scan of every stored vector costs rows × dimensions multiply-adds a question, several
 * milliseconds at a big assistant's size. So each row keeps two compact forms instead of its
 * floats:
 * - a sketch of `SKETCH_BITS` sign bits: the vector's coordinates folded onto `SKETCH_BITS`
 *   places under fixed random signs, then a Walsh–Hadamard rotation (random hyperplanes, cheaply).
 *   Two vectors' sketches differ in about angle/π of their bits, so the rows whose sketches are
 *   closest to the question's (popcount over 8 words a row) hold its nearest phrasings;
 * - the vector quantised to one signed byte a coordinate (scaled by its largest), with the
 *   inverse of the quantised vector's length: the cosine with the question is computed on it for
 *   the `RESCORE_ROWS` closest sketches only. Quantising moves a cosine by about 1e-4, far below
 *   the thresholds' steps and margins (qa-match.ts `qaThresholds`).
 * Rows are added and removed in place (an edited pair); a freed row is reused.
 */

/** Sign bits in a row's sketch (8 words of 32). */
export const SKETCH_BITS = 256;
const SKETCH_WORDS = SKETCH_BITS / 32;
/** Rows whose cosine is computed per question: those with the closest sketches. */
export const RESCORE_ROWS = 64;

/** A fixed seed: sketches made in any isolate, at any time, compare. */
function randomSigns(n: number): Float32Array {
  let seed = 0x9e3779b9;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    out[i] = seed & 0x8000_0000 ? -1 : 1;
  }
  return out;
}

/** In-place Walsh–Hadamard transform of a power-of-two length. */
function hadamard(x: Float32Array) {
  for (let h = 1; h < x.length; h <<= 1) {
    for (let i = 0; i < x.length; i += h << 1) {
      for (let j = i; j < i + h; j++) {
        const a = x[j]!;
        const b = x[j + h]!;
        x[j] = a + b;
        x[j + h] = a - b;
      }
    }
  }
}

/** Bytes one row takes: sketch, one byte a dimension, scale, owner, question flag, scan distance. */
const rowBytes = (dimensions: number) => SKETCH_WORDS * 4 + dimensions + 4 + 4 + 1 + 2;

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export class QaVectorRows {
  /** The vectors' length (the first row's); rows of another length are refused. */
  dimensions = 0;
  /** Rows in use. */
  count = 0;
  private capacity = 0;
  private signs = new Float32Array(0);
  private folded = new Float32Array(SKETCH_BITS);
  private sketches = new Uint32Array(0);
  private codes = new Int8Array(0);
  private inverseNorms = new Float32Array(0);
  /** The phrasing a row belongs to (qa-match.ts's slot), -1 for a free row. */
  private owners = new Int32Array(0);
  private questions = new Uint8Array(0);
  private free: number[] = [];
  private distances = new Uint16Array(0);
  private histogram = new Int32Array(SKETCH_BITS + 1);

  /** Rows at most: `maxRows`, fewer for long vectors so the rows stay within `maxBytes`. */
  private maxRows: number;

  constructor(private readonly limits: { maxRows: number; maxBytes: number }) {
    this.maxRows = limits.maxRows;
  }

  /** Bytes the rows take (allocated, in use or free). */
  bytes(): number {
    return this.capacity * rowBytes(this.dimensions);
  }

  /** A vector's sign sketch into `out` at word `at`. */
  private sketch(vector: ArrayLike<number>, out: Uint32Array, at: number) {
    const folded = this.folded.fill(0);
    for (let i = 0; i < this.dimensions; i++) folded[i % SKETCH_BITS]! += vector[i]! * this.signs[i]!;
    hadamard(folded);
    for (let w = 0; w < SKETCH_WORDS; w++) {
      let word = 0;
      for (let b = 0; b < 32; b++) if (folded[w * 32 + b]! > 0) word |= 1 << b;
      out[at + w] = word >>> 0;
    }
  }

  private grow() {
    const capacity = Math.min(this.maxRows, Math.max(16, this.capacity * 2));
    const d = this.dimensions;
    const sketches = new Uint32Array(capacity * SKETCH_WORDS);
    sketches.set(this.sketches);
    const codes = new Int8Array(capacity * d);
    codes.set(this.codes);
    const inverseNorms = new Float32Array(capacity);
    inverseNorms.set(this.inverseNorms);
    const owners = new Int32Array(capacity).fill(-1);
    owners.set(this.owners);
    const questions = new Uint8Array(capacity);
    questions.set(this.questions);
    for (let r = capacity - 1; r >= this.capacity; r--) this.free.push(r);
    Object.assign(this, { sketches, codes, inverseNorms, owners, questions, capacity, distances: new Uint16Array(capacity) });
  }

  /**
   * Adds phrasing `owner`'s vector. Returns its row, and the phrasing whose row it took when the
   * rows were full (a question takes a variant's row: every pair's question first); null when
   * refused (another length, a zero vector, or full of questions / full for a variant).
   */
  add(owner: number, vector: ArrayLike<number>, question: boolean): { row: number; evicted: number | null } | null {
    // The first row sets the length (an embedder changed while the pairs were few starts afresh).
    if (!this.count && vector.length !== this.dimensions) this.reset(vector.length);
    if (vector.length !== this.dimensions || !vector.length) return null;
    let max = 0;
    for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i]!));
    if (!(max > 0) || !Number.isFinite(max)) return null;
    if (!this.free.length && this.capacity < this.maxRows) this.grow();
    let evicted: number | null = null;
    let row = this.free.pop();
    if (row === undefined) {
      if (!question) return null;
      row = this.questions.indexOf(0);
      if (row < 0) return null;
      evicted = this.owners[row]!;
      this.count--;
    }
    const d = this.dimensions;
    let sum = 0;
    for (let i = 0; i < d; i++) {
      const code = Math.round((vector[i]! / max) * 127);
      this.codes[row * d + i] = code;
      sum += code * code;
    }
    this.inverseNorms[row] = 1 / Math.sqrt(sum);
    this.sketch(vector, this.sketches, row * SKETCH_WORDS);
    this.owners[row] = owner;
    this.questions[row] = question ? 1 : 0;
    this.count++;
    return { row, evicted };
  }

  private reset(dimensions: number) {
    Object.assign(this, {
      dimensions,
      maxRows: Math.min(this.limits.maxRows, Math.floor(this.limits.maxBytes / rowBytes(dimensions))),
      capacity: 0,
      free: [],
      signs: randomSigns(dimensions),
      sketches: new Uint32Array(0),
      codes: new Int8Array(0),
      inverseNorms: new Float32Array(0),
      owners: new Int32Array(0),
      questions: new Uint8Array(0),
      distances: new Uint16Array(0),
    });
  }

  remove(row: number) {
    if (row < 0 || row >= this.capacity || this.owners[row] === -1) return;
    this.owners[row] = -1;
    this.questions[row] = 0;
    this.free.push(row);
    this.count--;
  }

  /**
   * The cosine of `vector` (unit length) with each of the rows whose sketches are closest to its
   * own (at most RESCORE_ROWS), as (owner phrasing, cosine).
   */
  nearest(vector: Float32Array): { owner: number; score: number }[] {
    if (!this.count || vector.length !== this.dimensions) return [];
    const query = new Uint32Array(SKETCH_WORDS);
    this.sketch(vector, query, 0);
    const { sketches, owners, distances, histogram } = this;
    histogram.fill(0);
    const [q0, q1, q2, q3, q4, q5, q6, q7] = query as unknown as number[];
    for (let r = 0, at = 0; r < this.capacity; r++, at += SKETCH_WORDS) {
      if (owners[r] === -1) continue;
      const distance =
        popcount(sketches[at]! ^ q0!) + popcount(sketches[at + 1]! ^ q1!) + popcount(sketches[at + 2]! ^ q2!) + popcount(sketches[at + 3]! ^ q3!) +
        popcount(sketches[at + 4]! ^ q4!) + popcount(sketches[at + 5]! ^ q5!) + popcount(sketches[at + 6]! ^ q6!) + popcount(sketches[at + 7]! ^ q7!);
      distances[r] = distance;
      histogram[distance]!++;
    }
    // The largest distance within the RESCORE_ROWS closest, and how many rows at it still fit.
    let cutoff = 0;
    let below = 0;
    while (cutoff < SKETCH_BITS && below + histogram[cutoff]! < RESCORE_ROWS) below += histogram[cutoff++]!;
    let atCutoff = RESCORE_ROWS - below;
    const out: { owner: number; score: number }[] = [];
    const d = this.dimensions;
    for (let r = 0; r < this.capacity; r++) {
      if (owners[r] === -1 || distances[r]! > cutoff) continue;
      if (distances[r] === cutoff && atCutoff-- <= 0) continue;
      let dot = 0;
      for (let i = 0, at = r * d; i < d; i++, at++) dot += vector[i]! * this.codes[at]!;
      out.push({ owner: owners[r]!, score: dot * this.inverseNorms[r]! });
    }
    return out;
  }
}
