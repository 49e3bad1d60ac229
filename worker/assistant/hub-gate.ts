import type { Env } from "../env";
import { legacyDailyCount } from "../services/widget/widget-limits";
import { AssistantCopyStore, loadAssistantFromD1, unsettledMs, type AssistantCopy, type AssistantState } from "./assistant-copy";
import { importLegacyKnowledge, importLegacyVisitorRows } from "./legacy-import";
import { migrateAssistantStorage } from "./storage-migrations";
import { VisitorStore } from "./visitor-store";

/** Storage key (key-value API, no SQL table) of an erased object's tombstone: its erasure time. */
const ERASED_KEY = "erased";

/** What a data RPC works on once the gate let it through. */
export interface OpenedHub {
  store: VisitorStore;
  assistant: AssistantCopy;
}

/**
 * The gate every data RPC of an assistant's own object (AssistantHub) passes: its storage schema
 * (append-only migrations), the copy of the assistant (assistant-copy.ts: trusted, or re-read from
 * D1 while an owner's write is unsettled), and, once, the move of its legacy D1 rows
 * (legacy-import.ts). No import from `cloudflare:workers`: the hub hands over its state.
 */
export class HubGate {
  private migrated = false;
  /** Whether the tombstone is stored; undefined: not read yet. Only `markErased` writes it. */
  private tombstoned: boolean | undefined;
  /**
   * The copy as storage last said it, trusted (no owner write pending), kept in memory so a turn
   * reads neither the copy nor the markers (two RPCs a turn, each a read and a JSON parse).
   * Everything that writes the copy or the markers goes through this gate and drops it first.
   */
  private trusted: AssistantCopy | "missing" | null = null;
  /** One store for the object's life (it remembers the day it last pruned the per-day counters). */
  private store: { assistantId: string; store: VisitorStore } | null = null;
  /** When the D1 read whose result is stored began (this instance; 0: stored before it started). */
  private storedBy = 0;
  /** The legacy move under way: every data RPC awaits the same one; after a failure the next caller starts it again. */
  private importing: Promise<void> | null = null;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
  ) {}

  /** Applies the storage migrations this object has not seen (once per instance). */
  migrate() {
    if (this.migrated) return;
    migrateAssistantStorage(this.ctx.storage);
    this.migrated = true;
  }

  /**
   * Whether the assistant was deleted and this object erased: then nothing creates its storage
   * again (no migration, no copy, no legacy move, no socket registration), and every call answers
   * as for a missing assistant. Kept in the key-value storage, so checking it creates no table.
   */
  erased(): boolean {
    this.tombstoned ??= this.ctx.storage.kv.get(ERASED_KEY) !== undefined;
    return this.tombstoned;
  }

  /** After `deleteAll` (the assistant was deleted): the tombstone, and nothing else, is written. */
  markErased() {
    this.migrated = false;
    this.importing = null;
    this.trusted = null;
    this.storedBy = 0;
    this.store = null;
    this.tombstoned = true;
    this.ctx.storage.kv.put(ERASED_KEY, Date.now());
  }

  /**
   * The schema, the assistant's copy (null: the assistant no longer exists), and the one-time move
   * of its legacy D1 rows, which nothing else overtakes.
   */
  async open(assistantId: string): Promise<OpenedHub | null> {
    if (this.erased()) return null;
    this.migrate();
    let assistant = await this.assistant(assistantId);
    if (assistant === "missing") return null;
    if (!this.imported()) {
      this.importing ??= this.importLegacy(assistantId, assistant.record.config.dailyLimit).finally(() => {
        this.importing = null;
      });
      await this.importing;
      // The move may take long: an owner's change that settled meanwhile (a revoked key) counts.
      assistant = await this.assistant(assistantId);
      if (assistant === "missing") return null;
    }
    if (this.store?.assistantId !== assistantId) this.store = { assistantId, store: new VisitorStore(this.ctx.storage, assistantId) };
    return { store: this.store.store, assistant };
  }

  /**
   * The one-time move of the assistant's legacy D1 rows. Not in blockConcurrencyWhile: a large
   * move may take longer than its 30 s, which would reset the object and start over every time.
   * Each page moved is deleted from D1 (legacy-import.ts), so an attempt that fails part-way
   * leaves the rest for the next one, which resumes there.
   */
  private async importLegacy(assistantId: string, dailyLimit: number) {
    if (this.imported()) return;
    const moved = await importLegacyVisitorRows(this.env.DB, this.ctx.storage, assistantId);
    const files = await importLegacyKnowledge(this.env.DB, this.ctx.storage, assistantId);
    const today = await legacyDailyCount(this.env, assistantId, dailyLimit);
    if (today) new VisitorStore(this.ctx.storage, assistantId).carryDailyCount(today);
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('imported', ?)", String(Date.now()));
    if (moved || files) console.log(JSON.stringify({ event: "assistant-legacy-rows-moved", assistantId, sessions: moved, files }));
  }

  /** Before an owner's D1 write that changes the assistant: a pending marker of its own; returns its token. */
  configChanging(): string {
    // Erased: the assistant is gone, there is no copy to keep fresh.
    if (this.erased()) return "";
    this.migrate();
    this.trusted = null;
    return new AssistantCopyStore(this.ctx.storage).markPending(Date.now() + unsettledMs);
  }

  /** After the owner's D1 write: the copy is read again from D1, and that write's marker removed. */
  async configChanged(assistantId: string, token?: string) {
    if (this.erased()) return;
    this.migrate();
    await this.readD1(assistantId, token);
  }

  private imported(): boolean {
    return this.ctx.storage.sql.exec("SELECT 1 FROM meta WHERE key = 'imported'").toArray().length > 0;
  }

  /** The copy, or D1 when there is none or an owner's write is pending (assistant-copy.ts). */
  private async assistant(assistantId: string): Promise<AssistantState> {
    if (this.trusted) return this.trusted;
    const copies = new AssistantCopyStore(this.ctx.storage);
    const stored = copies.read();
    if (stored && !copies.pending()) {
      this.trusted = stored;
      return stored;
    }
    return this.readD1(assistantId);
  }

  /**
   * Reads the assistant from D1 into the copy and settles the markers that read covers (`token`'s,
   * and those whose deadline had passed when it started). Only a read that started once every
   * pending marker had expired stores what D1 says whatever its `updatedAt` (force): every write
   * begun before it committed before it started (unless another owner write began while it was
   * reading). Any other read keeps the newest `updatedAt`: a refresh that started before another
   * write committed must not put back an older copy. While another write is pending the caller
   * gets what D1 said, or the stored copy when a read that began later stored a newer one (a
   * write's refresh that may have answered its owner already); a copy stored before this read
   * began never outvotes D1 (a row stamped by a skewed clock).
   */
  private async readD1(assistantId: string, token?: string): Promise<AssistantState> {
    this.trusted = null;
    const copies = new AssistantCopyStore(this.ctx.storage);
    const startedAt = Date.now();
    const sequence = copies.sequence();
    const afterDeadlines = copies.pending() && !copies.pendingAfter(startedAt);
    const fresh = await loadAssistantFromD1(this.env.DB, assistantId);
    // A marker set while D1 answered dropped `trusted` too; `assistant` trusts the copy again once none is left.
    this.trusted = null;
    const stored = copies.write(fresh, afterDeadlines && copies.sequence() === sequence);
    const overtaken = this.storedBy > startedAt;
    if (stored) this.storedBy = startedAt;
    copies.settle(startedAt, token);
    const copy = copies.read();
    if (!copies.pending()) return copy ?? fresh;
    // Another owner write is still pending: what D1 said, unless a read that began after this one
    // (an owner write's refresh, which may have answered its request already) stored a newer copy.
    return overtaken && copy && isNewer(copy, fresh) ? copy : fresh;
  }
}

/** Whether `copy` is newer than `fresh` (`updatedAt`; a deletion is final). */
function isNewer(copy: AssistantState, fresh: AssistantState): boolean {
  if (copy === "missing") return true;
  return fresh !== "missing" && copy.record.updatedAt > fresh.record.updatedAt;
}
