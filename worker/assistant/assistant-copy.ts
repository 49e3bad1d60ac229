import { eq } from "drizzle-orm";
import { dbOf } from "../db/client";
import * as schema from "../db/schema";
import { originAllowed } from "../services/widget/authorize-widget-call";
import { toPublicAssistantRecord, type PublicAssistantRecord } from "../services/public-assistants/to-public-assistant";

/**
 * The assistant's object keeps a persisted copy of the assistant's directory row (D1
 * `public_assistants` stays the record): its settings and its publishable key's hash, so a socket
 * frame is authorised without D1. Freshness (worker/README.md "the assistant's own object"):
 *
 * - loaded from D1 when absent;
 * - every owner write that changes it (update, key regeneration) first calls `configChanging`,
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
 */

export interface AssistantCopy {
  record: PublicAssistantRecord;
  keyHash: string;
}

export type AssistantState = AssistantCopy | "missing";

/** How long an owner's write may take between `configChanging` and its D1 commit. */
export const unsettledMs = 60_000;

type Host = Pick<DurableObjectStorage, "sql">;

export class AssistantCopyStore {
  constructor(private readonly storage: Host) {}

  read(): AssistantState | null {
    const [row] = this.storage.sql.exec("SELECT record, key_hash FROM assistant_copy WHERE id = 1").toArray();
    if (!row) return null;
    const record = JSON.parse(String(row.record)) as PublicAssistantRecord | null;
    return record ? { record, keyHash: String(row.key_hash) } : "missing";
  }

  /** Stores `state` unless what is stored is newer (or a deletion); `force`: the read after every pending deadline (hub-gate.ts). */
  write(state: AssistantState, force = false) {
    const current = this.read();
    if (!force && current === "missing") return;
    if (!force && current && current !== "missing" && state !== "missing" && current.record.updatedAt > state.record.updatedAt) return;
    const record = state === "missing" ? "null" : JSON.stringify(state.record);
    const keyHash = state === "missing" ? "" : state.keyHash;
    const updatedAt = state === "missing" ? 0 : state.record.updatedAt;
    this.storage.sql.exec(
      `INSERT INTO assistant_copy (id, record, key_hash, updated_at, loaded_at) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET record = excluded.record, key_hash = excluded.key_hash, updated_at = excluded.updated_at, loaded_at = excluded.loaded_at`,
      record,
      keyHash,
      updatedAt,
      Date.now(),
    );
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

/** The assistant's row from D1, as the copy holds it; "missing" when it was deleted. */
export async function loadAssistantFromD1(db: D1Database, assistantId: string): Promise<AssistantState> {
  const [row] = await dbOf(db).select().from(schema.publicAssistants).where(eq(schema.publicAssistants.id, assistantId)).limit(1);
  return row ? { record: toPublicAssistantRecord(row), keyHash: row.apiKeyHash } : "missing";
}

export type AccessDenied = "unavailable" | "origin-not-allowed";

/** Whether a widget caller holding `keyHash` from `origin` may use the assistant now. */
export function widgetAccess(state: AssistantState | null, keyHash: string, origin: string): AccessDenied | null {
  if (!state || state === "missing" || state.keyHash !== keyHash || !state.record.isActive) return "unavailable";
  if (!originAllowed(state.record, origin, "required")) return "origin-not-allowed";
  return null;
}
