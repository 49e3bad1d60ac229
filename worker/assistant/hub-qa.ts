import { qaMessages, widget, type QaMode, type QaStrictness } from "../../contract";
import type { Env } from "../env";
import { embeddingProviderFromEnv } from "../knowledge";
import type { Passage } from "../widget/prompt";
import { QaIndex, type QaMatch } from "./qa-match";
import { QaStore } from "./qa-store";

/**
 * Curated answers in a turn, next to the pairs (the hub's `beginTurn`, the Playground, /v1): the
 * matcher's index kept in memory, updated in place by the owner's writes and rebuilt when the
 * pairs' revision moved otherwise, the question's match, and the pairs as passages. No import
 * from `cloudflare:workers`.
 */

type Storage = Pick<DurableObjectStorage, "sql" | "transactionSync">;

/** The pair a turn uses: `exact`, its answer is the reply (no model); `guide`, the first, authoritative passage. */
export interface CuratedAnswer {
  qaId: string;
  mode: QaMode;
  question: string;
  answer: string;
}

/** What a write did to the pairs, for the index in memory to follow. */
export type QaChange = { upsert: string } | { remove: string } | { rebuildAll: true };

export class HubQa {
  #index: QaIndex | null = null;
  #revision = -1;

  /**
   * The matcher's index over the pairs as they are now (one small read when nothing changed). It
   * is rebuilt from storage when the revision moved without this copy following (another
   * isolate's write, an object that woke up after eviction, an in-place update that failed).
   */
  index(storage: Storage): QaIndex {
    const store = new QaStore(storage);
    const revision = store.revision();
    if (!this.#index || revision !== this.#revision) {
      this.#index = new QaIndex(store.matchPairs());
      this.#revision = revision;
    }
    return this.#index;
  }

  /** Whether any pair has a stored vector (the question is embedded only then). */
  hasVectors(storage: Storage): boolean {
    return this.index(storage).vectorRows > 0;
  }

  /**
   * After a write of the pairs (facets/qa.ts), in the same synchronous step: when the index was
   * current before it (`before`, the revision then), it follows the change in place (one pair's
   * phrasings; an import is read again at once, so the next turn does not wait for it) and takes
   * the new revision. Otherwise it is left for the next turn to rebuild. Never throws: a failure
   * drops the index (logged).
   */
  written(storage: Storage, before: number, change: QaChange): void {
    if (!this.#index || this.#revision !== before) return;
    try {
      const store = new QaStore(storage);
      const revision = store.revision();
      if (revision === before) return;
      if ("rebuildAll" in change) {
        this.#index = new QaIndex(store.matchPairs());
      } else {
        const pair = "upsert" in change ? store.matchPair(change.upsert) : null;
        if (pair) this.#index.upsert(pair);
        else this.#index.remove("upsert" in change ? change.upsert : change.remove);
      }
      this.#revision = revision;
    } catch (error) {
      console.error(JSON.stringify({ event: "qa-index-update-failed", error: String(error) }));
      this.#index = null;
    }
  }
}

/** The pair a question lexically gets at `strictness` in `exact` mode, or null: decided before the counters (an exact reply costs no budget). */
export function exactLexicalMatch(storage: Storage, qa: HubQa, question: string, strictness: QaStrictness): QaMatch | null {
  const index = qa.index(storage);
  if (!index.size) return null;
  const { used } = index.match(question, strictness);
  return used?.mode === "exact" ? used : null;
}

/**
 * The question's embedding, and the retrieval query's, in one call of the embedder (no extra
 * round trip: retrieval embeds the query anyway). Nulls when no embedder is configured or the
 * call failed (logged; the turn goes on lexically).
 */
export async function embedTurnTexts(env: Env, assistantId: string, input: { query: string; question: string }, wantQuestion: boolean) {
  const embedder = embeddingProviderFromEnv(env);
  if (!embedder || !input.query.trim()) return { embedder, query: null, question: null };
  const texts = wantQuestion && input.question !== input.query ? [input.query, input.question] : [input.query];
  try {
    const [query, question] = await embedder.embed(texts);
    return { embedder, query: query ?? null, question: wantQuestion ? (question ?? query ?? null) : null };
  } catch (error) {
    console.error(JSON.stringify({ event: "widget-embed-failed", assistantId, error: String(error) }));
    return { embedder: null, query: null, question: null };
  }
}

/** A pair as a passage: the site's own answer, its question as the heading. */
export function qaPassage(pair: { id: string; question: string; answer: string }): Passage {
  return { fileId: `qa:${pair.id}`, fileName: qaMessages.sourceLabel, heading: pair.question, content: pair.answer, qaId: pair.id };
}

/**
 * The question matched against the pairs: the pair to use (its use counted), and the passages:
 * a guiding pair first, then the knowledge passages, then pairs close enough to be candidates.
 */
export function curatedStep(
  storage: Storage,
  qa: HubQa,
  input: { question: string; strictness: QaStrictness; vector: Float32Array | null; passages: Passage[] | null; countUse?: boolean },
): { curated: CuratedAnswer | null; passages: Passage[] | null } {
  const index = qa.index(storage);
  if (!index.size) return { curated: null, passages: input.passages };
  const store = new QaStore(storage);
  const { used, candidates } = index.match(input.question, input.strictness, input.vector);
  const pair = used ? store.get(used.qaId) : null;
  if (pair && input.countUse !== false) store.countUse(pair.id);
  const curated = pair ? { qaId: pair.id, mode: pair.mode, question: pair.question, answer: pair.answer } : null;
  if (curated?.mode === "exact") return { curated, passages: input.passages ?? [] };
  if (input.passages === null) return { curated, passages: null };
  const extra = candidates.flatMap((c) => {
    const p = store.get(c.qaId);
    return p ? [qaPassage(p)] : [];
  });
  const knowledge = input.passages.slice(0, Math.max(0, widget.retrievalResults - extra.length));
  return { curated, passages: [...(pair ? [qaPassage(pair)] : []), ...knowledge, ...extra] };
}
