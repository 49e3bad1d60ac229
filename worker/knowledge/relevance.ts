import { knowledgeSearch } from "../../contract";
import { fusionProfileFor } from "./fusion";
import type { KnowledgeHit } from "./search";

/**
 * The relevance floor: which retrieved passages an answer may use and cite. BM25 scores are not
 * comparable across questions (and any passage sharing one word gets a score), so the lexical
 * rule is about the question instead: a passage must contain at least `minCoverage` of the
 * question's content words. Content words are the question's words minus English and French stop
 * words and question words ("how", "long", "combien"…), compared after a light stemming (accents
 * dropped as FTS5 does; one of -ies/-ing/-ed/-es/-s/-e removed; a doubled final consonant made
 * single), so "shipping" matches "ship" and "offices" "office" but "officer" does not match
 * "office" (FTS5's prefix match would). Of the passages that hold enough words, those whose BM25
 * score is under `minScoreRatio` of the best one's are dropped too: a passing mention in a long
 * policy ("returns and refunds" in a privacy policy) next to the passage about the subject. A
 * passage found by vectors passes on its cosine alone (`minVectorScore`). Pure; no I/O.
 */

/** Words that say how a question is asked, not what it is about (English, French, a few Arabic). */
const questionWords = new Set(
  (
    "a an and are as at be but by can could do does did for from has have had how i if in is it its me my no not of on or our so that the " +
    "their them there these this those to was were we what when where which who whom why will would with you your yours " +
    "about also any get got give go just know let like long many much need please some take tell than thanks thank use want " +
    "au aux avec ce ces cette dans de des du elle elles en est et il ils je la le les leur mais me mes mon ma ne nous on ou où par pas " +
    "pour qu que qui quel quelle quels quelles quand comment combien pourquoi sa se ses son sont sur ta te tes ton tu un une vos votre " +
    "vous avez êtes être avoir faire fait peux peut puis est-ce y a l d s c j n qu " +
    "في من على إلى عن ما هل كيف أين متى هو هي أنا أنت نحن هذا هذه"
  ).split(" "),
);

/** Lower-cased, accents and combining marks removed (FTS5's `remove_diacritics 2`). */
function fold(word: string): string {
  return word.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** A light stem shared by English and French plurals and verb forms; never below 3 letters. */
export function stemOf(word: string): string {
  let w = fold(word);
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  for (const suffix of ["ing", "ed", "es", "s", "e"]) {
    if (suffix === "s" && w.endsWith("ss")) continue;
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // "shipp" (shipping, shipped) → "ship".
  if (w.length >= 4 && w.at(-1) === w.at(-2) && /[b-df-hj-np-tv-z]/.test(w.at(-1)!)) w = w.slice(0, -1);
  return w;
}

const wordsOf = (text: string) => text.normalize("NFKC").match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];

/** The question's content words as stems, deduplicated ([] when it has none). */
export function contentTerms(question: string): string[] {
  const terms = wordsOf(question)
    .map((w) => w.toLowerCase())
    .filter((w) => !questionWords.has(w) && !(w.length === 1 && /[a-z]/.test(w)))
    .map(stemOf);
  return [...new Set(terms)];
}

/** The share (0–1) of `terms` found among the text's words, compared as stems. */
export function termCoverage(terms: readonly string[], text: string): number {
  if (!terms.length) return 0;
  const stems = new Set(wordsOf(text).map(stemOf));
  return terms.filter((t) => stems.has(t)).length / terms.length;
}

export interface RelevanceFloor {
  /** Share of the question's content words a passage must contain (lexical rule). */
  minCoverage: number;
  /** Share of the best BM25 score (among passages holding enough words) a passage must reach. */
  minScoreRatio: number;
  /** Cosine similarity at or above which a vector match passes on its own. */
  minVectorScore: number;
}

/**
 * The floor for an embedder's model (none: lexical only): the contract's lexical rule, and the
 * cosine the model's vectors need to pass alone (`knowledgeSearch.embedders`), since cosines of
 * unrelated texts differ from one model to the next.
 */
export function relevanceFloorFor(model: string | null | undefined): RelevanceFloor {
  return { ...knowledgeSearch.relevanceFloor, minVectorScore: fusionProfileFor(model).minVectorScore };
}

type Scored = Pick<KnowledgeHit, "heading" | "content" | "lexicalScore" | "vectorScore">;

/** Whether a passage's heading and text hold at least `minCoverage` of the terms. */
function coversEnough(hit: Scored, terms: readonly string[], floor: RelevanceFloor): boolean {
  return terms.length > 0 && termCoverage(terms, `${hit.heading}\n${hit.content}`) >= floor.minCoverage;
}

/**
 * The hits that clear the floor, in their order: a vector match of cosine `minVectorScore` or
 * more, or a passage that holds `minCoverage` of the question's content words with a BM25 score of
 * at least `minScoreRatio` of the best such passage's. Terms come from `question`, or from
 * `fallback` (the retrieval query, with the conversation's earlier questions) when the question
 * has no content word (a follow-up like "why?").
 */
export function relevantHits<H extends Scored>(hits: readonly H[], question: string, floor: RelevanceFloor, fallback = ""): H[] {
  const own = contentTerms(question);
  const terms = own.length ? own : contentTerms(fallback);
  const covering = new Set(hits.filter((hit) => coversEnough(hit, terms, floor)));
  const best = Math.max(0, ...[...covering].map((hit) => hit.lexicalScore ?? 0));
  return hits.filter(
    (hit) =>
      (hit.vectorScore !== undefined && hit.vectorScore >= floor.minVectorScore) ||
      (covering.has(hit) && (hit.lexicalScore ?? 0) >= floor.minScoreRatio * best),
  );
}
