import { qaLimits, type QaMode, type QaStrictness } from "../../contract";
import { QaVectorRows } from "./qa-vectors";

/**
 * Matching a visitor's question against an assistant's curated answers (Q&A pairs): pure, no I/O,
 * the same code in the hub's turn (hub-qa.ts), the unit test over the labelled set and
 * bench/qa-matching.mjs.
 *
 * A text is normalised (NFKD, accents and marks dropped, lower case, Arabic letter forms folded,
 * punctuation to spaces), cut into words, stop words of English, French and Arabic dropped, and
 * each word lightly stemmed. A question and a pair's question or variant are compared by a
 * weighted Dice over their term sets: each term weighs its rarity among the assistant's pairs
 * (idf), so "return" shared by ten pairs says less than "warranty". A visitor's word that is not
 * in the pairs' vocabulary may stand for one that is when their character trigrams are close
 * (a typo: "retrun" → "return"), at a discount. When an embedder is configured the cosine of the
 * question's vector and the nearest stored vectors (qa-vectors.ts: sign sketches pick the
 * closest rows, their cosine decides) is a second score with its own threshold.
 *
 * A pair is used when its best score clears the strictness's threshold and, for precision, it
 * leads the runner-up pair by a margin; below the threshold, pairs over `candidate` are still
 * passages. The thresholds are tuned on tests/fixtures/qa-shop (bench/qa-matching.mjs): at the
 * default strictness no question of that set gets a wrong pair.
 */

export interface QaThresholds {
  /** Lexical score at or above which the best pair is used. */
  lexical: number;
  /** Cosine at or above which the best pair by vector is used (an embedder is configured). */
  vector: number;
  /** The best pair must lead the best other pair by this much (lexical). */
  margin: number;
}

export const qaThresholds: Record<QaStrictness, QaThresholds> = {
  strict: { lexical: 0.86, vector: 0.97, margin: 0.1 },
  balanced: { lexical: 0.74, vector: 0.93, margin: 0.05 },
  loose: { lexical: 0.62, vector: 0.88, margin: 0.05 },
};
/** Lexical score from which a pair that is not used is still a candidate passage. */
export const qaCandidateFloor = 0.34;
/** A visitor's word stands for a vocabulary word with a trigram similarity at least this (counted at that share). */
const FUZZY_MIN = 0.5;
/** What a word one edit from a vocabulary term counts for. */
const TYPO_SHARE = 0.8;
/** A visitor's word found nowhere in the pairs weighs this many times a term found in one pair: it says the question is about something else. */
const UNKNOWN_WEIGHT = 1.5;
/** At most this many pairs are offered as candidate passages. */
const MAX_CANDIDATES = 2;

const STOP = new Set(
  (
    "a an and are as at be been but by can could do does did doing done for from has have had how i if in is it its me my mine of on or our " +
    "so that the their them there these this those to was were we what whats when where which who whom why will would with you your yours after before " +
    "am any anything some someone something just please hi hello hey thanks thank ok okay there here u ur im id ive dont doesnt cant " +
    "should shall may might must get got go going want wanted need know tell let like also still yet then than too very really " +
    "au aux avec ce ces cet cette dans de des du elle elles en est et il ils je la le les leur leurs mais me mes mon ma ne nous on ou " +
    "par pas pour qu que qui quel quelle quels quelles quand comment pourquoi sa se ses son sont sur ta te tes ton tu un une vos votre " +
    "vous avez etes etre avoir faire fait peux peut puis puisje estce y a l d s c j n m t bonjour merci svp est-ce " +
    "ai as " +
    "في من على الى عن ما ماذا هل كيف اين متى هو هي انا انت نحن هذا هذه ذلك لي لكم يمكنني يمكن اريد او و ان مع لماذا عند عندي"
  ).split(" "),
);

/** A French elided word before its apostrophe: "j'ai", "l'article", "qu'il", "d'ouverture". */
const ELISION = /(?<![\p{L}\p{N}])(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu)['’](?=\p{L})/gu;

/**
 * Lower case, accents and marks dropped (Arabic hamza seats and short vowels with them), Arabic
 * letter forms, tatweel and Eastern digits folded, French elisions cut off, other apostrophes
 * dropped ("don't" stays one word), anything but letters and digits a space.
 */
export function normaliseQuestion(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[\u0622\u0623\u0625\u0671]/g, "\u0627")
    .replace(/\u0649/g, "\u064a")
    .replace(/\u0629/g, "\u0647")
    .replace(/\u0640/g, "")
    .replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String((d.charCodeAt(0) - 0x0660) % 0x90))
    .replace(ELISION, "")
    .replace(/['’`]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Arabic clitics a light stem takes off: the conjunction and prepositions with the article, the article, then a possessive. */
const ARABIC_PREFIXES = ["\u0648\u0627\u0644", "\u0628\u0627\u0644", "\u0641\u0627\u0644", "\u0643\u0627\u0644", "\u0644\u0644", "\u0627\u0644"];
// Not a lone "ه": it is also the folded taa marbuta of most feminine nouns.
const ARABIC_SUFFIXES = ["\u0647\u0645\u0627", "\u0643\u0645", "\u0647\u0645", "\u0647\u0627", "\u0646\u0627", "\u064a", "\u0643"];

/** An Arabic word's light stem (no roots): one prefix, then one possessive, each when 3 letters stay. */
function arabicStem(word: string): string {
  let w = word;
  const prefix = ARABIC_PREFIXES.find((p) => w.startsWith(p) && w.length - p.length >= 3);
  if (prefix) w = w.slice(prefix.length);
  const suffix = ARABIC_SUFFIXES.find((p) => w.endsWith(p) && w.length - p.length >= 3);
  return suffix ? w.slice(0, -suffix.length) : w;
}

/** A light stem for English and French (plurals, -ing, -ed, -ment, -tion); Arabic loses its clitics (article, possessive). */
export function stem(word: string): string {
  let w = word;
  if (/^[\u0600-\u06ff]/.test(w)) return arabicStem(w);
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  for (const suffix of ["ements", "ement", "ments", "ment", "ations", "ation", "ing", "ed", "es", "s", "e", "x"]) {
    if (suffix === "s" && w.endsWith("ss")) continue;
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.length >= 4 && w.at(-1) === w.at(-2) && /[b-df-hj-np-tv-z]/.test(w.at(-1)!)) w = w.slice(0, -1);
  return w;
}

/** The question's terms: normalised words, stop words dropped, stemmed, once each. */
export function questionTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const word of normaliseQuestion(text).split(" ")) {
    if (!word || STOP.has(word) || (word.length === 1 && !/\d/.test(word))) continue;
    terms.add(stem(word));
  }
  return [...terms];
}

function trigrams(term: string): string[] {
  const padded = ` ${term} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return [...out];
}

/** One pair as the matcher needs it: its question and variants, optional vectors (same order: question first). */
export interface QaMatchPair {
  id: string;
  mode: QaMode;
  question: string;
  variants: readonly string[];
  vectors?: readonly (ArrayLike<number> | null)[] | undefined;
}

/** A vocabulary term: in how many pairs, its weight, the phrasings that hold it. */
interface Term {
  text: string;
  pairs: number;
  idf: number;
  postings: number[];
}

interface Phrasing {
  pair: number;
  /** The pair's question (else a variant). */
  question: boolean;
  terms: Term[];
  weight: number;
  /** Its vector's row in `QaVectorRows`, -1 without one. */
  row: number;
}

/** Phrasings' vectors waiting for a row: (phrasing, vector). */
interface VectorQueue {
  questions: [number, ArrayLike<number>][];
  variants: [number, ArrayLike<number>][];
}

interface PairEntry {
  id: string;
  mode: QaMode;
  phrasings: number[];
  terms: Term[];
}

export interface QaMatch {
  qaId: string;
  mode: QaMode;
  score: number;
  by: "lexical" | "vector";
}

export interface QaMatchResult {
  /** The pair to use (above the threshold), or null. */
  used: QaMatch | null;
  /** Pairs close enough to be candidate passages (the used one excluded), best first. */
  candidates: QaMatch[];
}

/**
 * The matcher's index over an assistant's pairs: term → phrasings, idf per term, trigram →
 * vocabulary terms, and the phrasings' vectors (qa-vectors.ts). Built once from every pair, then
 * kept up to date in place: `upsert` and `remove` change one pair's phrasings and refresh the
 * weights (every idf moves with the number of pairs), so an edit costs milliseconds where a
 * rebuild costs the whole set's normalisation (hub-qa.ts). `match` touches only the phrasings
 * that share a term with the question, and the vectors closest to its own.
 */
export class QaIndex {
  private readonly pairs: (PairEntry | null)[] = [];
  private readonly pairSlots = new Map<string, number>();
  private readonly freePairs: number[] = [];
  private readonly phrasings: (Phrasing | null)[] = [];
  private readonly freePhrasings: number[] = [];
  private readonly terms = new Map<string, Term>();
  private readonly grams = new Map<string, Set<string>>();
  private readonly vectors = new QaVectorRows({ maxRows: qaLimits.maxVectorPhrasings, maxBytes: qaLimits.maxVectorBytes });
  private defaultIdf = 0;

  constructor(pairs: readonly QaMatchPair[] = []) {
    const vectored: VectorQueue = { questions: [], variants: [] };
    for (const pair of pairs) this.add(pair, vectored);
    this.addVectors(vectored);
    this.reweigh();
  }

  /** Pairs in the index. */
  get size(): number {
    return this.pairSlots.size;
  }

  /** Phrasings with a vector (the question is embedded only when some are). */
  get vectorRows(): number {
    return this.vectors.count;
  }

  /** Bytes the vectors' rows take. */
  vectorBytes(): number {
    return this.vectors.bytes();
  }

  /** A pair added, or changed in place (its phrasings replaced). */
  upsert(pair: QaMatchPair) {
    this.detach(pair.id);
    const vectored: VectorQueue = { questions: [], variants: [] };
    this.add(pair, vectored);
    this.addVectors(vectored);
    this.reweigh();
  }

  /** A pair taken out; false when it was not in the index. */
  remove(id: string): boolean {
    if (!this.detach(id)) return false;
    this.reweigh();
    return true;
  }

  /** A bounded scan per turn: every pair's question gets a row first, then variants while room is left. */
  private addVectors(queue: VectorQueue) {
    for (const [index, vector] of [...queue.questions, ...queue.variants]) {
      const phrasing = this.phrasings[index]!;
      const added = this.vectors.add(index, vector, phrasing.question);
      if (!added) continue;
      phrasing.row = added.row;
      if (added.evicted !== null) this.phrasings[added.evicted]!.row = -1;
    }
  }

  /** Adds a pair's phrasings and terms; its vectors are queued on `vectored`. */
  private add(pair: QaMatchPair, vectored: VectorQueue) {
    const slot = this.freePairs.pop() ?? this.pairs.length;
    const entry: PairEntry = { id: pair.id, mode: pair.mode, phrasings: [], terms: [] };
    this.pairs[slot] = entry;
    this.pairSlots.set(pair.id, slot);
    const seen = new Set<Term>();
    [pair.question, ...pair.variants].forEach((text, i) => {
      const words = questionTerms(text);
      if (!words.length) return;
      const index = this.freePhrasings.pop() ?? this.phrasings.length;
      const phrasing: Phrasing = { pair: slot, question: i === 0, terms: words.map((w) => this.term(w)), weight: 0, row: -1 };
      this.phrasings[index] = phrasing;
      entry.phrasings.push(index);
      for (const t of phrasing.terms) {
        t.postings.push(index);
        seen.add(t);
      }
      const vector = pair.vectors?.[i];
      if (vector) (phrasing.question ? vectored.questions : vectored.variants).push([index, vector]);
    });
    for (const t of seen) t.pairs++;
    entry.terms = [...seen];
  }

  /** Takes a pair's phrasings, terms and vectors out (no reweighing); false when unknown. */
  private detach(id: string): boolean {
    const slot = this.pairSlots.get(id);
    if (slot === undefined) return false;
    const entry = this.pairs[slot]!;
    for (const index of entry.phrasings) {
      const phrasing = this.phrasings[index]!;
      if (phrasing.row >= 0) this.vectors.remove(phrasing.row);
      for (const t of phrasing.terms) {
        const at = t.postings.indexOf(index);
        if (at >= 0) t.postings[at] = t.postings[t.postings.length - 1]!;
        t.postings.pop();
      }
      this.phrasings[index] = null;
      this.freePhrasings.push(index);
    }
    for (const t of entry.terms) if (--t.pairs === 0) this.forget(t);
    this.pairs[slot] = null;
    this.pairSlots.delete(id);
    this.freePairs.push(slot);
    return true;
  }

  private term(text: string): Term {
    let t = this.terms.get(text);
    if (t) return t;
    t = { text, pairs: 0, idf: 0, postings: [] };
    this.terms.set(text, t);
    if (text.length >= 4) {
      for (const g of trigrams(text)) {
        const set = this.grams.get(g);
        if (set) set.add(text);
        else this.grams.set(g, new Set([text]));
      }
    }
    return t;
  }

  private forget(t: Term) {
    this.terms.delete(t.text);
    if (t.text.length < 4) return;
    for (const g of trigrams(t.text)) {
      const set = this.grams.get(g);
      set?.delete(t.text);
      if (set && !set.size) this.grams.delete(g);
    }
  }

  /** Every idf follows the number of pairs, and each phrasing's weight its terms' idf. */
  private reweigh() {
    const n = Math.max(1, this.size);
    for (const t of this.terms.values()) t.idf = Math.log(1 + n / t.pairs);
    this.defaultIdf = Math.log(1 + n);
    for (const ph of this.phrasings) if (ph) ph.weight = ph.terms.reduce((sum, t) => sum + t.idf, 0);
  }

  /**
   * The vocabulary term a word not in it most likely stands for (a typo), with how much it counts:
   * close character trigrams, or one edit away (an adjacent swap counts one: "retrun", "recieve").
   * Null when none is close. Only words of 4 letters or more, only terms sharing a trigram; of
   * two as close, the first in alphabetical order (the same in any index of the same pairs).
   */
  private nearestTerm(term: string): { term: Term; similarity: number } | null {
    if (term.length < 4) return null;
    const mine = trigrams(term);
    const shared = new Map<string, number>();
    for (const g of mine) for (const t of this.grams.get(g) ?? []) shared.set(t, (shared.get(t) ?? 0) + 1);
    let best: { term: string; similarity: number } | null = null;
    for (const [t, count] of shared) {
      let similarity = (2 * count) / (mine.length + trigrams(t).length);
      if (similarity < TYPO_SHARE && Math.abs(t.length - term.length) <= 1 && t[0] === term[0] && withinOneEdit(term, t)) similarity = TYPO_SHARE;
      if (similarity >= FUZZY_MIN && (!best || similarity > best.similarity || (similarity === best.similarity && t < best.term))) best = { term: t, similarity };
    }
    return best ? { term: this.terms.get(best.term)!, similarity: best.similarity } : null;
  }

  /** The lexical score of every pair with a phrasing sharing a term with `text` (its best phrasing's), by pair slot. */
  lexicalScores(text: string): Map<number, number> {
    const query = new Map<Term, number>(); // vocabulary term → how much the visitor's word counts
    let queryWeight = 0;
    for (const word of questionTerms(text)) {
      const known = this.terms.get(word);
      if (known) {
        query.set(known, Math.max(query.get(known) ?? 0, 1));
        queryWeight += known.idf;
        continue;
      }
      const near = this.nearestTerm(word);
      if (near) query.set(near.term, Math.max(query.get(near.term) ?? 0, near.similarity));
      queryWeight += near ? near.term.idf : this.defaultIdf * UNKNOWN_WEIGHT;
    }
    const overlap = new Map<number, number>();
    for (const [term, share] of query) {
      const w = term.idf * share;
      for (const ph of term.postings) overlap.set(ph, (overlap.get(ph) ?? 0) + w);
    }
    const best = new Map<number, number>();
    for (const [ph, shared] of overlap) {
      const phrasing = this.phrasings[ph]!;
      const score = (2 * shared) / (queryWeight + phrasing.weight);
      if (score > (best.get(phrasing.pair) ?? 0)) best.set(phrasing.pair, score);
    }
    return best;
  }

  /**
   * The two pairs whose phrasings' vectors are closest to `vector` (unit length), best first:
   * among the rows whose sketches are nearest its own (qa-vectors.ts), by cosine.
   */
  vectorTop(vector: Float32Array): { qaId: string; score: number }[] {
    return this.vectorRanked(vector).map(([p, score]) => ({ qaId: this.pairs[p]!.id, score }));
  }

  private vectorRanked(vector: Float32Array): [number, number][] {
    const perPair = new Map<number, number>();
    for (const { owner, score } of this.vectors.nearest(vector)) {
      const pair = this.phrasings[owner]!.pair;
      if (score > (perPair.get(pair) ?? -2)) perPair.set(pair, score);
    }
    return this.ranked(perPair).slice(0, 2);
  }

  /** Pairs by score, best first; equal scores by id (the same order in any index of the same pairs). */
  private ranked(scores: Map<number, number>): [number, number][] {
    return [...scores].sort((a, b) => b[1] - a[1] || (this.pairs[a[0]]!.id < this.pairs[b[0]]!.id ? -1 : 1));
  }

  /**
   * The pair to use for `text` at `strictness` (with `vector`, the question's embedding, when an
   * embedder is configured; vectors are unit length), and the candidate passages.
   */
  match(text: string, strictness: QaStrictness, vector?: Float32Array | null): QaMatchResult {
    const t = qaThresholds[strictness];
    const lexical = this.ranked(this.lexicalScores(text));
    const toMatch = ([p, score]: [number, number], by: QaMatch["by"]): QaMatch => ({ qaId: this.pairs[p]!.id, mode: this.pairs[p]!.mode, score, by });
    let used: QaMatch | null = null;
    const [first, second] = lexical;
    if (first && first[1] >= t.lexical && first[1] - (second?.[1] ?? 0) >= t.margin) used = toMatch(first, "lexical");
    if (!used && vector) {
      const [vFirst, vSecond] = this.vectorRanked(vector);
      if (vFirst && vFirst[1] >= t.vector && vFirst[1] - (vSecond?.[1] ?? 0) >= t.margin / 2) used = toMatch(vFirst, "vector");
    }
    const candidates = lexical
      .filter(([p, score]) => score >= qaCandidateFloor && this.pairs[p]!.id !== used?.qaId)
      .slice(0, MAX_CANDIDATES)
      .map((entry) => toMatch(entry, "lexical"));
    return { used, candidates };
  }
}

/** Optimal string alignment distance of at most 1 (one insertion, deletion, substitution or adjacent swap). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
