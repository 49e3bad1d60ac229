import { qaLimits, type QaMode, type QaPair } from "../../contract";
import { blobToVector, vectorToBlob } from "../knowledge/vectors";
import { normaliseQuestion, type QaMatchPair } from "./qa-match";

/**
 * An assistant's curated answers (Q&A pairs) in its own object's SQLite (migration 0014): the
 * pairs, their phrasings (question first, then variants) with the normalised text that refuses a
 * duplicate and, when an embedder is configured, each phrasing's vector; a revision that every
 * write moves once (the turn's matcher is kept up to date by it: hub-qa.ts). Synchronous, no import from
 * `cloudflare:workers`.
 */

type Row = Record<string, SqlStorageValue>;
type Host = Pick<DurableObjectStorage, "sql" | "transactionSync">;

export interface QaDraft {
  question: string;
  answer: string;
  variants: string[];
  mode: QaMode;
  /** One vector per phrasing (question first), or none: matched lexically only. */
  vectors?: (number[] | null)[] | null | undefined;
}

export type QaWriteResult = { ok: true; qa: QaPair } | { ok: false; reason: "duplicate"; existing: string } | { ok: false; reason: "too-many" | "not-found" };

const toPair = (r: Row): QaPair => ({
  id: String(r.id),
  question: String(r.question),
  variants: JSON.parse(String(r.variants)) as string[],
  answer: String(r.answer),
  mode: String(r.mode) as QaMode,
  uses: Number(r.uses),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

/** `%` and `_` of a LIKE pattern taken literally (ESCAPE '\'). */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export class QaStore {
  constructor(private readonly storage: Host) {}

  private get sql() {
    return this.storage.sql;
  }

  /** Moves with every write; the matcher's index is rebuilt when it changed. */
  revision(): number {
    const [r] = this.sql.exec("SELECT revision FROM qa_state WHERE id = 1").toArray();
    return Number(r?.revision ?? 0);
  }

  count(): number {
    return Number(this.sql.exec("SELECT count(*) AS n FROM qa_pairs").one().n);
  }

  /** A page of pairs, newest first; `q` finds its words in the question, a variant or the answer (case-insensitive for ASCII). */
  list(input: { q: string; page: number }): { qa: QaPair[]; total: number; page: number; totalPages: number } {
    const size = qaLimits.pageSize;
    const q = input.q.trim();
    const where = q ? "WHERE question LIKE ?1 ESCAPE '\\' OR variants LIKE ?1 ESCAPE '\\' OR answer LIKE ?1 ESCAPE '\\'" : "";
    const args = q ? [`%${likeEscape(q)}%`] : [];
    const total = Number(this.sql.exec(`SELECT count(*) AS n FROM qa_pairs ${where}`, ...args).one().n);
    const totalPages = Math.max(1, Math.ceil(total / size));
    const page = Math.min(Math.max(1, Math.trunc(input.page) || 1), totalPages);
    const rows = this.sql
      .exec(`SELECT * FROM qa_pairs ${where} ORDER BY created_at DESC, id DESC LIMIT ${size} OFFSET ${(page - 1) * size}`, ...args)
      .toArray()
      .map(toPair);
    return { qa: rows, total, page, totalPages };
  }

  get(id: string): QaPair | null {
    const [r] = this.sql.exec("SELECT * FROM qa_pairs WHERE id = ?", id).toArray();
    return r ? toPair(r) : null;
  }

  /** Every pair, oldest first (the export, at most `qaLimits.maxPairs`). */
  all(): QaPair[] {
    return this.sql.exec("SELECT * FROM qa_pairs ORDER BY created_at, id").toArray().map(toPair);
  }

  /** The question of the pair (other than `except`) one of whose phrasings normalises like one of `texts`; null when none. */
  duplicateOf(texts: readonly string[], except?: string): string | null {
    for (const text of texts) {
      const [r] = this.sql
        .exec("SELECT p.question FROM qa_phrasings f JOIN qa_pairs p ON p.id = f.pair_id WHERE f.normalized = ? AND f.pair_id != ? LIMIT 1", normaliseQuestion(text), except ?? "")
        .toArray();
      if (r) return String(r.question);
    }
    return null;
  }

  /** Adds a pair: refused past `qaLimits.maxPairs`, or when its question or a variant is another pair's. */
  create(draft: QaDraft, now: number, id: string = crypto.randomUUID()): QaWriteResult {
    if (this.count() >= qaLimits.maxPairs) return { ok: false, reason: "too-many" };
    const existing = this.duplicateOf([draft.question, ...draft.variants]);
    if (existing !== null) return { ok: false, reason: "duplicate", existing };
    this.storage.transactionSync(() => {
      this.sql.exec(
        "INSERT INTO qa_pairs (id, question, variants, answer, mode, uses, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
        id,
        draft.question,
        JSON.stringify(draft.variants),
        draft.answer,
        draft.mode,
        now,
        now,
      );
      this.writePhrasings(id, draft);
    });
    return { ok: true, qa: this.get(id)! };
  }

  /** Changes a pair; its phrasings (and their vectors) are written again when the question or the variants change. */
  update(id: string, patch: Partial<QaDraft>, now: number): QaWriteResult {
    const current = this.get(id);
    if (!current) return { ok: false, reason: "not-found" };
    const next: QaDraft = {
      question: patch.question ?? current.question,
      answer: patch.answer ?? current.answer,
      variants: patch.variants ?? current.variants,
      mode: patch.mode ?? current.mode,
      vectors: patch.vectors,
    };
    const rephrased = patch.question !== undefined || patch.variants !== undefined;
    if (rephrased) {
      const existing = this.duplicateOf([next.question, ...next.variants], id);
      if (existing !== null) return { ok: false, reason: "duplicate", existing };
    }
    this.storage.transactionSync(() => {
      this.sql.exec(
        "UPDATE qa_pairs SET question = ?, variants = ?, answer = ?, mode = ?, updated_at = ? WHERE id = ?",
        next.question,
        JSON.stringify(next.variants),
        next.answer,
        next.mode,
        Math.max(now, current.updatedAt + 1),
        id,
      );
      if (rephrased) this.writePhrasings(id, next);
      else this.bump();
    });
    return { ok: true, qa: this.get(id)! };
  }

  remove(id: string): boolean {
    if (!this.get(id)) return false;
    this.storage.transactionSync(() => {
      this.sql.exec("DELETE FROM qa_phrasings WHERE pair_id = ?", id);
      this.sql.exec("DELETE FROM qa_pairs WHERE id = ?", id);
      this.bump();
    });
    return true;
  }

  /**
   * Adds imported rows in order, each alone: a row whose question or variant is an existing
   * pair's, or an earlier row's, or that comes past `qaLimits.maxPairs`, is reported by its line.
   */
  importRows(rows: readonly (QaDraft & { line: number })[], now: number): { imported: number; failed: { line: number; reason: "duplicate" | "too-many"; existing?: string }[] } {
    const failed: { line: number; reason: "duplicate" | "too-many"; existing?: string }[] = [];
    let imported = 0;
    for (const row of rows) {
      const created = this.create(row, now);
      if (created.ok) imported++;
      else if (created.reason === "duplicate") failed.push({ line: row.line, reason: "duplicate", existing: created.existing });
      else failed.push({ line: row.line, reason: "too-many" });
    }
    return { imported, failed };
  }

  /** A reply this pair gave or guided. */
  countUse(id: string): void {
    this.sql.exec("UPDATE qa_pairs SET uses = uses + 1 WHERE id = ?", id);
  }

  /** One pair as the matcher needs it (an in-place update of its index), or null when gone. */
  matchPair(id: string): QaMatchPair | null {
    const [r] = this.sql.exec("SELECT id, mode, question, variants FROM qa_pairs WHERE id = ?", id).toArray();
    if (!r) return null;
    const vectors: (Float32Array | null)[] = [];
    for (const v of this.sql.exec("SELECT ordinal, embedding FROM qa_phrasings WHERE pair_id = ? AND embedding IS NOT NULL", id).toArray()) {
      vectors[Number(v.ordinal)] = blobToVector(v.embedding);
    }
    return { id: String(r.id), mode: String(r.mode) as QaMode, question: String(r.question), variants: JSON.parse(String(r.variants)) as string[], vectors };
  }

  /** Every pair as the matcher needs it, with its phrasings' vectors when stored. */
  matchPairs(): QaMatchPair[] {
    const vectors = new Map<string, (Float32Array | null)[]>();
    for (const r of this.sql.exec("SELECT pair_id, ordinal, embedding FROM qa_phrasings WHERE embedding IS NOT NULL").toArray()) {
      const list = vectors.get(String(r.pair_id)) ?? [];
      list[Number(r.ordinal)] = blobToVector(r.embedding);
      vectors.set(String(r.pair_id), list);
    }
    return this.sql
      .exec("SELECT id, mode, question, variants FROM qa_pairs ORDER BY created_at, id")
      .toArray()
      .map((r) => ({
        id: String(r.id),
        mode: String(r.mode) as QaMode,
        question: String(r.question),
        variants: JSON.parse(String(r.variants)) as string[],
        vectors: vectors.get(String(r.id)),
      }));
  }

  private writePhrasings(id: string, draft: QaDraft) {
    this.sql.exec("DELETE FROM qa_phrasings WHERE pair_id = ?", id);
    [draft.question, ...draft.variants].forEach((text, ordinal) => {
      const vector = draft.vectors?.[ordinal];
      this.sql.exec(
        "INSERT OR REPLACE INTO qa_phrasings (pair_id, ordinal, normalized, embedding) VALUES (?, ?, ?, ?)",
        id,
        ordinal,
        normaliseQuestion(text),
        vector ? vectorToBlob(Float32Array.from(vector)) : null,
      );
    });
    this.bump();
  }

  private bump() {
    this.sql.exec("UPDATE qa_state SET revision = revision + 1 WHERE id = 1");
  }
}
