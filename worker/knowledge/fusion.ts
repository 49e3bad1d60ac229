import { knowledgeSearch } from "../../contract";

/**
 * Fusing the lexical (BM25) and vector lists of a hybrid search. Pure; no I/O.
 *
 * The default is a convex combination of scores normalised by their theoretical minimum and the
 * query's best ("TM2C2", Bruch et al., "An Analysis of Fusion Functions for Hybrid Retrieval",
 * 2023): unlike rank fusion it keeps how far apart two passages score, and its one weight
 * moves smoothly from "lexical only" (0) to "vectors only" (1), so the weight can be set per
 * embedder: a weak embedder gets a small weight and cannot drag a strong lexical list down.
 * Weighted reciprocal rank fusion is kept for comparison (bench/retrieval.mjs).
 */

export interface Scored<Id> {
  id: Id;
  score: number;
}

/** How one embedder's vectors are fused and floored (contract: `knowledgeSearch.embedders`). */
export interface FusionProfile {
  /** Weight of the vector list in the convex combination (the lexical list gets 1 − this). */
  vectorWeight: number;
  /** Cosine at or above which a vector match clears the relevance floor on its own. */
  minVectorScore: number;
  /**
   * The disagreement guard: when no passage is in both lists' first `guardDepth` and the best
   * lexical passage holds every content word of the question, the lexical list leads (weight
   * `guardWeight` for vectors). 0 turns the guard off.
   */
  guardDepth: number;
  guardWeight: number;
}

/** Theoretical minimum of each score: −bm25 is never below 0; a cosine never below −1. */
const LEXICAL_MIN = 0;
const COSINE_MIN = -1;

/** Scores mapped to [0, 1] as (s − min) / (best − min); an empty or flat list maps to 1s. */
function normalise<Id>(list: readonly Scored<Id>[], min: number): Map<Id, number> {
  const best = list.reduce((m, x) => Math.max(m, x.score), -Infinity);
  const span = best - min;
  return new Map(list.map((x) => [x.id, span > 0 ? Math.max(0, (x.score - min) / span) : 1]));
}

/** Sorted by score, then by the better rank in either list, then by id: deterministic. */
function ranked<Id extends string | number>(scores: Map<Id, number>, rankOf: (id: Id) => number): Scored<Id>[] {
  return [...scores.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || rankOf(a.id) - rankOf(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function bestRanks<Id>(lists: readonly (readonly Scored<Id>[])[]): (id: Id) => number {
  const best = new Map<Id, number>();
  for (const list of lists) list.forEach((x, i) => best.set(x.id, Math.min(best.get(x.id) ?? Infinity, i + 1)));
  return (id) => best.get(id) ?? Infinity;
}

/**
 * Convex combination of normalised scores: (1 − w)·lexical + w·vector, a passage missing from a
 * list scoring that list's minimum (0). `lexical` scores are −bm25, `vector` scores cosines.
 */
export function convexFusion<Id extends string | number>(lexical: readonly Scored<Id>[], vector: readonly Scored<Id>[], vectorWeight: number): Scored<Id>[] {
  const w = Math.min(1, Math.max(0, vectorWeight));
  const lex = normalise(lexical, LEXICAL_MIN);
  const vec = normalise(vector, COSINE_MIN);
  const fused = new Map<Id, number>();
  for (const id of new Set([...lex.keys(), ...vec.keys()])) fused.set(id, (1 - w) * (lex.get(id) ?? 0) + w * (vec.get(id) ?? 0));
  return ranked(fused, bestRanks([lexical, vector]));
}

/**
 * Weighted reciprocal rank fusion: each list votes weight / (k + rank). Equal weights and k = 60
 * are the original method (Cormack et al., 2009).
 */
export function weightedRankFusion<Id extends string | number>(lists: readonly { ids: readonly Id[]; weight: number }[], k = 60): Scored<Id>[] {
  const fused = new Map<Id, number>();
  for (const { ids, weight } of lists) ids.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + weight / (k + i + 1)));
  return ranked(fused, bestRanks(lists.map((l) => l.ids.map((id) => ({ id, score: 0 })))));
}

/** Whether the first `depth` of the two lists share no passage (0: never). */
export function listsDisagree<Id>(lexical: readonly Scored<Id>[], vector: readonly Scored<Id>[], depth: number): boolean {
  if (depth <= 0 || !lexical.length || !vector.length) return false;
  const top = new Set(lexical.slice(0, depth).map((x) => x.id));
  return !vector.slice(0, depth).some((x) => top.has(x.id));
}

/**
 * The vector weight for one question: the profile's, or `guardWeight` when the lists disagree
 * (`listsDisagree`) and the best lexical passage holds every content word of the question
 * (`lexicalComplete`): an exact match on a code, a product name or a rare word is then trusted
 * over an embedder that ranks something else first.
 */
export function vectorWeightFor<Id>(profile: FusionProfile, lexical: readonly Scored<Id>[], vector: readonly Scored<Id>[], lexicalComplete: boolean): number {
  return lexicalComplete && listsDisagree(lexical, vector, profile.guardDepth) ? profile.guardWeight : profile.vectorWeight;
}

const profiles: Readonly<Record<string, FusionProfile>> = knowledgeSearch.embedders;

/** The fusion weights and floor of an embedder's model (`knowledgeSearch.embedders`), or the default for a model not listed. */
export function fusionProfileFor(model: string | null | undefined): FusionProfile {
  return (model && Object.hasOwn(profiles, model) ? profiles[model] : undefined) ?? knowledgeSearch.defaultEmbedder;
}
