import type { EmbeddingProvider } from "./embeddings";
import { convexFusion, fusionProfileFor, vectorWeightFor, type FusionProfile } from "./fusion";
import type { IndexedChunk, KnowledgeIndex } from "./knowledge-index";
import { contentTerms, termCoverage } from "./relevance";
import type { VectorStore } from "./vectors";

/** A retrieved passage with where it came from. `score`: higher is better (-bm25 for lexical results, the fused score for hybrid ones). */
export interface KnowledgeHit extends IndexedChunk {
  /** 1-based ranks in each list that found it (hybrid search). */
  lexicalRank?: number;
  vectorRank?: number;
  /** -bm25 of the lexical match (higher is better), kept when hybrid search replaces `score` with the fused one. */
  lexicalScore?: number;
  /** Cosine similarity of the vector match (hybrid search), for the relevance floor. */
  vectorScore?: number;
}

/** Words that carry no meaning for search, kept short on purpose (English and French). */
const stopWords = new Set(
  (
    "a an and are as at be but by can do does for from has have how i if in is it its me my no not of on or our so that the their them " +
    "there these this to was we what when where which who why will with you your " +
    "au aux avec ce ces dans de des du elle en est et il ils je la le les leur mais me mes mon ne nous on ou par pas pour qu que qui " +
    "sa se ses son sur ta te tes ton tu un une vos votre vous"
  ).split(" "),
);

const MAX_TERMS = 24;
/** Most passages a hybrid search returns. */
const MAX_K = 50;
const MAX_TERM_LENGTH = 64;

/**
 * Any user text → a safe FTS5 MATCH expression, or "" when nothing is searchable.
 * Terms are runs of letters, digits and combining marks (as the unicode61 tokenizer sees them),
 * lower-cased, each double-quoted so no FTS5 operator or syntax can come through; single Latin
 * letters and stop words are dropped (unless nothing else is left); terms of 4+ characters match
 * as prefixes, and a plural "s" is trimmed first ("refunds" → "refund"*); terms are OR-ed so BM25
 * ranks passages by how many and how rare the matched terms are. Never throws.
 */
export function toFtsQuery(userText: string): string {
  const words = String(userText ?? "")
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{N}\p{M}]+/gu);
  if (!words) return "";
  const candidates = [...new Set(words.map((w) => w.slice(0, MAX_TERM_LENGTH)))].filter(
    (w) => !(w.length === 1 && /[a-z]/.test(w)),
  );
  const meaningful = candidates.filter((w) => !stopWords.has(w));
  const terms = (meaningful.length ? meaningful : candidates).slice(0, MAX_TERMS);
  return terms
    .map((term) => {
      const length = [...term].length;
      if (length < 4) return `"${term}"`;
      const stem = length >= 5 && term.endsWith("s") && !term.endsWith("ss") ? term.slice(0, -1) : term;
      return `"${stem}"*`;
    })
    .join(" OR ");
}

/**
 * The assistant's best passages for `query` by BM25 (headings weigh twice the body), from files
 * that finished processing, read from the assistant's own index. Returns [] for a query with no
 * searchable term.
 */
export async function lexicalSearch(index: KnowledgeIndex, query: string, k = 8): Promise<KnowledgeHit[]> {
  const match = toFtsQuery(query);
  if (!match) return [];
  const rows = await index.lexical(match, Math.max(1, Math.floor(k)));
  return rows.map((row, i) => ({ ...row, lexicalRank: i + 1, lexicalScore: row.score }));
}

/**
 * Reciprocal rank fusion: each list votes 1 / (k + rank) for its items (rank from 1); items are
 * returned by total score, ties by their best rank and then id, so the order is deterministic.
 * k = 60 is the constant of the original paper (Cormack et al., 2009).
 */
export function reciprocalRankFusion<Id extends string | number>(lists: readonly (readonly Id[])[], k = 60): { id: Id; score: number }[] {
  const scores = new Map<Id, { score: number; best: number }>();
  for (const list of lists) {
    list.forEach((id, index) => {
      const entry = scores.get(id) ?? { score: 0, best: Infinity };
      entry.score += 1 / (k + index + 1);
      entry.best = Math.min(entry.best, index + 1);
      scores.set(id, entry);
    });
  }
  return [...scores.entries()]
    .sort(([a, x], [b, y]) => y.score - x.score || x.best - y.best || (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, { score }]) => ({ id, score }));
}

export interface HybridSearchInput {
  /** The assistant's index (its own Durable Object). */
  index: KnowledgeIndex;
  assistantId: string;
  query: string;
  embedder?: EmbeddingProvider | null;
  vectors?: VectorStore | null;
  /** Passages returned (default 5). */
  k?: number;
  /** Candidates taken from each list before fusion (default 4k, at least 20). */
  candidates?: number;
  /** Vector matches below this cosine similarity are ignored (default: none). */
  minVectorScore?: number;
  /** The query's embedding when the caller has it already (embedded with other texts in one call). */
  queryVector?: Float32Array | null;
  /** How the two lists are fused (default: the embedder's profile, `fusionProfileFor(embedder.model)`). */
  fusion?: FusionProfile;
  /** The visitor's question alone, for the disagreement guard's "every content word" test (default: `query`). */
  question?: string;
}

export interface HybridSearchResult {
  hits: KnowledgeHit[];
  mode: "hybrid" | "lexical";
  /** Why vector search was skipped although configured (the call failed): for logs. */
  vectorError?: string;
}

/**
 * Lexical (FTS5/BM25) and vector search fused by a convex combination of normalised scores
 * (fusion.ts), weighted for the embedder's model, when an embedder and a vector store are given;
 * lexical only otherwise, or when the embedding call fails (a chat must not fail because the
 * embeddings endpoint is down).
 */
export async function hybridSearch(input: HybridSearchInput): Promise<HybridSearchResult> {
  const k = Math.min(Math.max(1, Math.floor(input.k ?? 5)), MAX_K);
  const candidates = Math.max(input.candidates ?? k * 4, 20);
  const lexical = await lexicalSearch(input.index, input.query, candidates);
  if (!input.embedder || !input.vectors || !input.query.trim()) return { hits: lexical.slice(0, k), mode: "lexical" };

  let vectorMatches: { chunkId: number; score: number }[];
  try {
    const [vector] = input.queryVector ? [input.queryVector] : await input.embedder.embed([input.query]);
    vectorMatches = vector ? await input.vectors.query(input.assistantId, vector, candidates) : [];
  } catch (error) {
    return { hits: lexical.slice(0, k), mode: "lexical", vectorError: error instanceof Error ? error.message : String(error) };
  }
  if (input.minVectorScore !== undefined) vectorMatches = vectorMatches.filter((m) => m.score >= input.minVectorScore!);

  const profile = input.fusion ?? fusionProfileFor(input.embedder.model);
  const lexicalList = lexical.map((h) => ({ id: h.chunkId, score: h.lexicalScore ?? h.score }));
  const vectorList = vectorMatches.map((m) => ({ id: m.chunkId, score: m.score }));
  const terms = contentTerms(input.question ?? input.query);
  const complete = lexical[0] !== undefined && terms.length > 0 && termCoverage(terms, `${lexical[0].heading}\n${lexical[0].content}`) === 1;
  const fused = convexFusion(lexicalList, vectorList, vectorWeightFor(profile, lexicalList, vectorList, complete)).slice(0, k);
  const known = new Map(lexical.map((h) => [h.chunkId, h]));
  const missing = fused.map((f) => f.id).filter((id) => !known.has(id));
  for (const row of missing.length ? await input.index.chunks(missing) : []) known.set(row.chunkId, { ...row });
  const vectorRank = new Map(vectorMatches.map((m, i) => [m.chunkId, { rank: i + 1, score: m.score }]));
  const hits: KnowledgeHit[] = [];
  for (const { id, score } of fused) {
    const hit = known.get(id);
    // A vector id without a ready chunk of this assistant (a stale vector) is dropped.
    const vector = vectorRank.get(id);
    if (hit) hits.push({ ...hit, score, vectorRank: vector?.rank, ...(vector ? { vectorScore: vector.score } : {}) });
  }
  return { hits, mode: "hybrid" };
}
