import type { QaMode, QaStrictness } from "../../contract";

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
 * question's vector and each stored vector is a second score with its own threshold.
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
    "في من على الى عن ما ماذا هل كيف اين متى هو هي انا انت نحن هذا هذه ذلك لي لكم يمكنني يمكن اريد او و ان"
  ).split(" "),
);

/** Lower case, accents and marks dropped, Arabic letter forms folded, anything but letters and digits a space. */
export function normaliseQuestion(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[\u0622\u0623\u0625\u0671]/g, "\u0627")
    .replace(/\u0649/g, "\u064a")
    .replace(/\u0629/g, "\u0647")
    .replace(/['’`]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** A light stem for English and French (plurals, -ing, -ed, -ment, -tion); Arabic loses its article. */
export function stem(word: string): string {
  let w = word;
  if (/^[\u0600-\u06ff]/.test(w)) return w.length > 4 && w.startsWith("\u0627\u0644") ? w.slice(2) : w;
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
  vectors?: readonly (Float32Array | null)[] | undefined;
}

interface Phrasing {
  pair: number;
  terms: string[];
  weight: number;
  vector: Float32Array | null;
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
 * The matcher's index over an assistant's pairs: term → phrasings, idf per term, trigram → vocabulary
 * terms. Built once per change of the pairs (hub-qa.ts keeps it in memory); `match` touches only
 * the phrasings that share a term with the question.
 */
export class QaIndex {
  readonly size: number;
  private readonly pairs: QaMatchPair[];
  private readonly phrasings: Phrasing[] = [];
  private readonly postings = new Map<string, number[]>();
  private readonly idf = new Map<string, number>();
  private readonly grams = new Map<string, string[]>();
  private readonly defaultIdf: number;

  constructor(pairs: readonly QaMatchPair[]) {
    this.pairs = [...pairs];
    this.size = pairs.length;
    const docFreq = new Map<string, number>();
    this.pairs.forEach((pair, p) => {
      const seen = new Set<string>();
      [pair.question, ...pair.variants].forEach((text, i) => {
        const terms = questionTerms(text);
        if (!terms.length) return;
        const index = this.phrasings.length;
        this.phrasings.push({ pair: p, terms, weight: 0, vector: pair.vectors?.[i] ?? null });
        for (const t of terms) {
          const list = this.postings.get(t);
          if (list) list.push(index);
          else this.postings.set(t, [index]);
          seen.add(t);
        }
      });
      for (const t of seen) docFreq.set(t, (docFreq.get(t) ?? 0) + 1);
    });
    const n = Math.max(1, this.pairs.length);
    for (const [t, df] of docFreq) this.idf.set(t, Math.log(1 + n / df));
    this.defaultIdf = Math.log(1 + n);
    for (const ph of this.phrasings) ph.weight = ph.terms.reduce((sum, t) => sum + this.weightOf(t), 0);
    for (const t of this.postings.keys()) {
      if (t.length < 4) continue;
      for (const g of trigrams(t)) {
        const list = this.grams.get(g);
        if (list) list.push(t);
        else this.grams.set(g, [t]);
      }
    }
  }

  private weightOf(term: string): number {
    return this.idf.get(term) ?? this.defaultIdf;
  }

  /**
   * The vocabulary term a word not in it most likely stands for (a typo), with how much it counts:
   * close character trigrams, or one edit away (an adjacent swap counts one: "retrun", "recieve").
   * Null when none is close. Only words of 4 letters or more, only terms sharing a trigram.
   */
  private nearestTerm(term: string): { term: string; similarity: number } | null {
    if (term.length < 4) return null;
    const mine = trigrams(term);
    const shared = new Map<string, number>();
    for (const g of mine) for (const t of this.grams.get(g) ?? []) shared.set(t, (shared.get(t) ?? 0) + 1);
    let best: { term: string; similarity: number } | null = null;
    for (const [t, count] of shared) {
      let similarity = (2 * count) / (mine.length + trigrams(t).length);
      if (similarity < TYPO_SHARE && Math.abs(t.length - term.length) <= 1 && t[0] === term[0] && withinOneEdit(term, t)) similarity = TYPO_SHARE;
      if (similarity >= FUZZY_MIN && (!best || similarity > best.similarity)) best = { term: t, similarity };
    }
    return best;
  }

  /** The lexical score of every phrasing sharing a term with `text`, best per pair. */
  lexicalScores(text: string): Map<number, number> {
    const query = new Map<string, number>(); // vocabulary term → how much the visitor's word counts
    let queryWeight = 0;
    for (const term of questionTerms(text)) {
      if (this.postings.has(term)) {
        query.set(term, Math.max(query.get(term) ?? 0, 1));
        queryWeight += this.weightOf(term);
        continue;
      }
      const near = this.nearestTerm(term);
      if (near) query.set(near.term, Math.max(query.get(near.term) ?? 0, near.similarity));
      queryWeight += near ? this.weightOf(near.term) : this.defaultIdf * UNKNOWN_WEIGHT;
    }
    const overlap = new Map<number, number>();
    for (const [term, share] of query) {
      const w = this.weightOf(term) * share;
      for (const ph of this.postings.get(term) ?? []) overlap.set(ph, (overlap.get(ph) ?? 0) + w);
    }
    const best = new Map<number, number>();
    for (const [ph, shared] of overlap) {
      const phrasing = this.phrasings[ph]!;
      const score = (2 * shared) / (queryWeight + phrasing.weight);
      if (score > (best.get(phrasing.pair) ?? 0)) best.set(phrasing.pair, score);
    }
    return best;
  }

  /** The cosine of `vector` with every stored vector, best per pair. */
  vectorScores(vector: Float32Array): Map<number, number> {
    const best = new Map<number, number>();
    for (const ph of this.phrasings) {
      if (!ph.vector || ph.vector.length !== vector.length) continue;
      let dot = 0;
      for (let i = 0; i < vector.length; i++) dot += vector[i]! * ph.vector[i]!;
      if (dot > (best.get(ph.pair) ?? -1)) best.set(ph.pair, dot);
    }
    return best;
  }

  /**
   * The pair to use for `text` at `strictness` (with `vector`, the question's embedding, when an
   * embedder is configured; vectors are unit length), and the candidate passages.
   */
  match(text: string, strictness: QaStrictness, vector?: Float32Array | null): QaMatchResult {
    const t = qaThresholds[strictness];
    const lexical = ranked(this.lexicalScores(text));
    const toMatch = ([p, score]: [number, number], by: QaMatch["by"]): QaMatch => ({ qaId: this.pairs[p]!.id, mode: this.pairs[p]!.mode, score, by });
    let used: QaMatch | null = null;
    const [first, second] = lexical;
    if (first && first[1] >= t.lexical && first[1] - (second?.[1] ?? 0) >= t.margin) used = toMatch(first, "lexical");
    if (!used && vector) {
      const [vFirst, vSecond] = ranked(this.vectorScores(vector));
      if (vFirst && vFirst[1] >= t.vector && vFirst[1] - (vSecond?.[1] ?? 0) >= t.margin / 2) used = toMatch(vFirst, "vector");
    }
    const candidates = lexical
      .filter(([p, score]) => score >= qaCandidateFloor && this.pairs[p]!.id !== used?.qaId)
      .slice(0, MAX_CANDIDATES)
      .map((entry) => toMatch(entry, "lexical"));
    return { used, candidates };
  }
}

const ranked = (scores: Map<number, number>): [number, number][] => [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);

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
