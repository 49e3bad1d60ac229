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
 * - every owner write that changes it (update, key regeneration, deletion) first calls
 *   `configChanging` (the copy is "unsettled" for `unsettledMs`: every use re-reads D1), then
 *   writes D1, then calls `configChanged` (re-read from D1, settled). If the first call fails, the
 *   owner's request fails (503, retryable) before D1 changes; if the last one fails, the copy
 *   stays unsettled and every use re-reads D1 until the window ends, and the first use after it
 *   reads D1 once more (it started after the write committed) before trusting the copy again. So
 *   a revoked key, a deactivated assistant or a removed origin is never accepted from a stale copy.
 * - a copy is only replaced by one at least as new (`updatedAt`), so a slow read that started
 *   before a write cannot overwrite what a later read stored; a deletion ("missing") is final.
 */

export interface AssistantCopy {
  record: PublicAssistantRecord;
  keyHash: string;
}

export type AssistantState = AssistantCopy | "missing";

/** How long an owner's write may take between `configChanging` and its D1 commit. */
export const unsettledMs = 60_000;

type Host = Pick<DurableObjectStorage, "sql">;

/**
 * The copy and its unsettled mark, in the object's SQLite. Reads are kept in memory after the first
 * (every visitor RPC reads both): the object is the only writer of its storage and runs one event
 * at a time, so the memory mirrors what is stored as long as every write goes through this
 * instance. Keep one per object (AssistantHub) and make a new one after `deleteAll`.
 */
export class AssistantCopyStore {
  private cachedState: AssistantState | null | undefined = undefined;
  private cachedUnsettled: number | null | undefined = undefined;

  constructor(private readonly storage: Host) {}

  read(): AssistantState | null {
    if (this.cachedState !== undefined) return this.cachedState;
    const [row] = this.storage.sql.exec("SELECT record, key_hash FROM assistant_copy WHERE id = 1").toArray();
    const record = row ? (JSON.parse(String(row.record)) as PublicAssistantRecord | null) : null;
    this.cachedState = !row ? null : record ? { record, keyHash: String(row.key_hash) } : "missing";
    return this.cachedState;
  }

  /** Stores `state` unless what is stored is newer (or a deletion); `force` after an owner's write. */
  write(state: AssistantState, force = false) {
    const current = this.read();
    if (!force && current === "missing") return;
    if (!force && current && current !== "missing" && state !== "missing" && current.record.updatedAt > state.record.updatedAt) return;
    const record = state === "missing" ? "null" : JSON.stringify(state.record);
    const keyHash = state === "missing" ? "" : state.keyHash;
    const updatedAt = state === "missing" ? 0 : state.record.updatedAt;
    this.cachedState = undefined;
    this.storage.sql.exec(
      `INSERT INTO assistant_copy (id, record, key_hash, updated_at, loaded_at) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET record = excluded.record, key_hash = excluded.key_hash, updated_at = excluded.updated_at, loaded_at = excluded.loaded_at`,
      record,
      keyHash,
      updatedAt,
      Date.now(),
    );
  }

  unsettledUntil(): number | null {
    if (this.cachedUnsettled !== undefined) return this.cachedUnsettled;
    const [row] = this.storage.sql.exec("SELECT value FROM meta WHERE key = 'config_unsettled_until'").toArray();
    this.cachedUnsettled = row ? Number(row.value) : null;
    return this.cachedUnsettled;
  }

  markUnsettled(until: number) {
    this.cachedUnsettled = undefined;
    this.storage.sql.exec(
      "INSERT INTO meta (key, value) VALUES ('config_unsettled_until', ?) ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))",
      String(until),
    );
  }

  settle() {
    this.cachedUnsettled = undefined;
    this.storage.sql.exec("DELETE FROM meta WHERE key = 'config_unsettled_until'");
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
