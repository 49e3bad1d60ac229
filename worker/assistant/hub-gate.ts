import type { Env } from "../env";
import { legacyDailyCount } from "../services/widget/widget-limits";
import { AssistantCopyStore, loadAssistantFromD1, unsettledMs, type AssistantCopy, type AssistantState } from "./assistant-copy";
import { importLegacyKnowledge, importLegacyVisitorRows } from "./legacy-import";
import { migrateAssistantStorage } from "./storage-migrations";
import { VisitorStore } from "./visitor-store";

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

  /** After `deleteAll`: the schema is applied again on next use. */
  forget() {
    this.migrated = false;
  }

  /**
   * The schema, the assistant's copy (null: the assistant no longer exists), and the one-time move
   * of its legacy D1 rows, which nothing else overtakes.
   */
  async open(assistantId: string): Promise<OpenedHub | null> {
    this.migrate();
    const assistant = await this.assistant(assistantId);
    if (assistant === "missing") return null;
    if (!this.imported()) {
      await this.ctx.blockConcurrencyWhile(async () => {
        if (this.imported()) return;
        const moved = await importLegacyVisitorRows(this.env.DB, this.ctx.storage, assistantId);
        const files = await importLegacyKnowledge(this.env.DB, this.ctx.storage, assistantId);
        const today = await legacyDailyCount(this.env, assistantId, assistant.record.config.dailyLimit);
        if (today) new VisitorStore(this.ctx.storage, assistantId).carryDailyCount(today);
        this.ctx.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('imported', ?)", String(Date.now()));
        if (moved || files) console.log(JSON.stringify({ event: "assistant-legacy-rows-moved", assistantId, sessions: moved, files }));
      });
    }
    return { store: new VisitorStore(this.ctx.storage, assistantId), assistant };
  }

  /** Before an owner's D1 write that changes the assistant: the copy is re-read from D1 until `configChanged`. */
  configChanging() {
    this.migrate();
    new AssistantCopyStore(this.ctx.storage).markUnsettled(Date.now() + unsettledMs);
  }

  /** After the owner's D1 write: the copy is read again from D1 and trusted. */
  async configChanged(assistantId: string) {
    this.migrate();
    const copies = new AssistantCopyStore(this.ctx.storage);
    copies.write(await loadAssistantFromD1(this.env.DB, assistantId), true);
    copies.settle();
  }

  private imported(): boolean {
    return this.ctx.storage.sql.exec("SELECT 1 FROM meta WHERE key = 'imported'").toArray().length > 0;
  }

  /** The copy, or D1 when there is none or an owner's write is unsettled (assistant-copy.ts). */
  private async assistant(assistantId: string): Promise<AssistantState> {
    const copies = new AssistantCopyStore(this.ctx.storage);
    const unsettledUntil = copies.unsettledUntil();
    const stored = copies.read();
    if (stored && unsettledUntil === null) return stored;
    const readAt = Date.now();
    const fresh = await loadAssistantFromD1(this.env.DB, assistantId);
    copies.write(fresh);
    if (unsettledUntil !== null) {
      // A read that started after the window is newer than any write that marked it.
      if (readAt >= unsettledUntil && copies.unsettledUntil() === unsettledUntil) copies.settle();
      return fresh;
    }
    return copies.read() ?? fresh;
  }
}
