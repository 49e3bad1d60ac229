import { and, eq, isNull } from "drizzle-orm";
import { dbOf } from "../db/client";
import * as schema from "../db/schema";
import { originAllowed } from "../services/widget/authorize-widget-call";
import { toPublicAssistantRecord, type PublicAssistantRecord } from "../services/public-assistants/to-public-assistant";

/**
 * The assistant's object keeps a persisted copy of the assistant's directory row (D1
 * `public_assistants` stays the record): its settings, its publishable key's hash and the hashes of
 * its secret keys in use, so a socket frame, an SSE turn and a /v1 call are authorised without D1.
 * Freshness (worker/README.md "the assistant's own object"):
 *
 * - loaded from D1 when absent;
 * - every owner write that changes it (update, key regeneration, a secret key created or revoked) first calls `configChanging`,
 *   which stores a pending marker of its own (a token, valid `unsettledMs`), then writes D1, then
 *   calls `configChanged(token)`: D1 is read again and only that write's marker is removed. The
 *   copy is trusted only when no marker is left, so two overlapping writes never settle each
 *   other: the first one's refresh may read D1 before the second one committed. If a first call
 *   fails, the owner's request fails (503, retryable) before D1 changes; if a last one fails, its
 *   marker stays and every use re-reads D1 until a read that started after the marker's deadline
 *   (so after that write committed) clears it.
 * - a copy is replaced only by one at least as new (`updatedAt`, which every owner write makes
 *   strictly increasing), so a slow read that started before a write cannot overwrite what a later
 *   read stored; a deletion ("missing") is final. The read that starts once every pending marker has
 *   expired stores what D1 says whatever its `updatedAt` (a row stamped by a skewed clock or
 *   restored), unless another owner write began while it was reading.
 * - while a write is pending, a read that a later read overtook (an owner's refresh that may have
 *   answered already) answers the newer stored copy, not its own older result (hub-gate.ts); a
 *   call that waited on the legacy move takes the copy again after it.
 */

export interface AssistantCopy {
  record: PublicAssistantRecord;
  keyHash: string;
  /** The secret keys in use (not revoked): /v1's callers. */
  secretKeys: { id: string; hash: string }[];
}

export type AssistantState = AssistantCopy | "missing";

/** How long an owner's write may take between `configChanging` and its D1 commit. */
export const unsettledMs = 60_000;

type Host = Pick<DurableObjectStorage, "sql">;

export class AssistantCopyStore {
  constructor(private readonly storage: Host) {}

  /** The stored copy; null when there is none, or it was stored before the copy held the secret keys (read D1 again). */
  read(): AssistantState | null {
    const [row] = this.storage.sql.exec("SELECT record, key_hash, secret_keys FROM assistant_copy WHERE id = 1").toArray();
    if (!row) return null;
    const record = JSON.parse(String(row.record)) as PublicAssistantRecord | null;
    if (!record) return "missing";
    if (row.secret_keys === null) return null;
    return { record, keyHash: String(row.key_hash), secretKeys: JSON.parse(String(row.secret_keys)) as AssistantCopy["secretKeys"] };
  }

  /** Stores `state` unless what is stored is newer (or a deletion); `force`: the read after every pending deadline (hub-gate.ts). Whether it stored it. */
  write(state: AssistantState, force = false): boolean {
    const current = this.read();
    if (!force && current === "missing") return false;
    if (!force && current && current !== "missing" && state !== "missing" && current.record.updatedAt > state.record.updatedAt) return false;
    const record = state === "missing" ? "null" : JSON.stringify(state.record);
    const keyHash = state === "missing" ? "" : state.keyHash;
    const secretKeys = JSON.stringify(state === "missing" ? [] : state.secretKeys);
    const updatedAt = state === "missing" ? 0 : state.record.updatedAt;
    this.storage.sql.exec(
      `INSERT INTO assistant_copy (id, record, key_hash, secret_keys, updated_at, loaded_at) VALUES (1, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET record = excluded.record, key_hash = excluded.key_hash, secret_keys = excluded.secret_keys,
         updated_at = excluded.updated_at, loaded_at = excluded.loaded_at`,
      record,
      keyHash,
      secretKeys,
      updatedAt,
      Date.now(),
    );
    return true;
  }

  /** Marks an owner's write as pending until `until`; returns its token (for `settle`). */
  markPending(until: number): string {
    const token = crypto.randomUUID();
    this.storage.sql.exec("INSERT INTO config_pending (token, until) VALUES (?, ?)", token, until);
    this.storage.sql.exec(
      "INSERT INTO meta (key, value) VALUES ('config_seq', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
    );
    return token;
  }

  /** How many owner writes began so far: a read that sees it move raced a new write. */
  sequence(): number {
    const [row] = this.storage.sql.exec("SELECT value FROM meta WHERE key = 'config_seq'").toArray();
    return row ? Number(row.value) : 0;
  }

  /** Whether any owner's write is still pending (expired or not): the copy is not trusted then. */
  pending(): boolean {
    return this.storage.sql.exec("SELECT 1 FROM config_pending LIMIT 1").toArray().length > 0;
  }

  /** Whether a pending marker's deadline is still ahead at `at`. */
  pendingAfter(at: number): boolean {
    return this.storage.sql.exec("SELECT 1 FROM config_pending WHERE until > ? LIMIT 1", at).toArray().length > 0;
  }

  /**
   * After a D1 read that started at `readStartedAt`: removes `token`'s marker (its write
   * committed before that read), and every marker whose deadline had passed when the read started.
   */
  settle(readStartedAt: number, token?: string) {
    if (token) this.storage.sql.exec("DELETE FROM config_pending WHERE token = ?", token);
    this.storage.sql.exec("DELETE FROM config_pending WHERE until <= ?", readStartedAt);
  }
}

/** The assistant's row and its secret keys in use from D1 (one round trip), as the copy holds them; "missing" when it was deleted. */
export async function loadAssistantFromD1(db: D1Database, assistantId: string): Promise<AssistantState> {
  const d = dbOf(db);
  const { publicAssistants: A, assistantSecretKeys: K } = schema;
  const [[row], keys] = await d.batch([
    d.select().from(A).where(eq(A.id, assistantId)).limit(1),
    d.select({ id: K.id, hash: K.keyHash }).from(K).where(and(eq(K.assistantId, assistantId), isNull(K.revokedAt))),
  ]);
  return row ? { record: toPublicAssistantRecord(row), keyHash: row.apiKeyHash, secretKeys: keys } : "missing";
}

export type AccessDenied = "unavailable" | "origin-not-allowed";

/** Why a /v1 call is refused: its key is not one of the assistant's secret keys in use (401), or the assistant's rule (403). */
export type ApiAccessDenied = "invalid-key" | AccessDenied;

/**
 * Whether a /v1 caller holding the secret key `keyHash` from `origin` ("" for a server) may use
 * the assistant now: the same rules as the D1 read of authorize-secret-key-call.ts.
 */
export function apiAccess(state: AssistantState | null, keyHash: string, origin: string): ApiAccessDenied | null {
  if (!state || state === "missing" || !state.secretKeys.some((k) => k.hash === keyHash)) return "invalid-key";
  if (!state.record.isActive) return "unavailable";
  if (!originAllowed(state.record, origin, "when-present")) return "origin-not-allowed";
  return null;
}

/** Whether a widget caller holding `keyHash` from `origin` may use the assistant now. */
export function widgetAccess(state: AssistantState | null, keyHash: string, origin: string): AccessDenied | null {
  if (!state || state === "missing" || state.keyHash !== keyHash || !state.record.isActive) return "unavailable";
  if (!originAllowed(state.record, origin, "required")) return "origin-not-allowed";
  return null;
}
