import { RpcTarget } from "cloudflare:workers";
import type { QaPair } from "../../../contract";
import type { Gone } from "../gone";
import type { HubCore } from "../hub-core";
import { QaStore, type QaDraft, type QaWriteResult } from "../qa-store";
import type { QaChange } from "../hub-qa";
import { whenOpen } from "./run";

/**
 * `hub.qa()`: the assistant's curated answers (qa-store.ts), as the owner's routes reach them; the
 * turn matches them in `beginTurn` (hub-qa.ts). Every method answers `gone` once the assistant was
 * deleted. Writes move the pairs' revision and update the matcher's index in memory in place
 * (hub-qa.ts `written`), so the next turn sees them without a rebuild.
 */
export class QaFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  #with<T>(use: (store: QaStore) => T): Promise<T | Gone> {
    return whenOpen(this.#core, () => use(new QaStore(this.#core.storage)));
  }

  /** A write, and the matcher's index in memory following it in the same synchronous step. */
  #write<T>(write: (store: QaStore) => T, change: (result: T) => QaChange | null): Promise<T | Gone> {
    return this.#with((store) => {
      const before = store.revision();
      const result = write(store);
      const changed = change(result);
      if (changed) this.#core.qa.written(this.#core.storage, before, changed);
      return result;
    });
  }

  list(input: { q: string; page: number }): Promise<ReturnType<QaStore["list"]> | Gone> {
    return this.#with((s) => s.list(input));
  }
  get(id: string): Promise<QaPair | null | Gone> {
    return this.#with((s) => s.get(id));
  }
  all(): Promise<QaPair[] | Gone> {
    return this.#with((s) => s.all());
  }
  create(draft: QaDraft, now: number): Promise<QaWriteResult | Gone> {
    return this.#write(
      (s) => s.create(draft, now),
      (result) => (result.ok ? { upsert: result.qa.id } : null),
    );
  }
  update(id: string, patch: Partial<QaDraft>, now: number): Promise<QaWriteResult | Gone> {
    return this.#write(
      (s) => s.update(id, patch, now),
      (result) => (result.ok ? { upsert: id } : null),
    );
  }
  remove(id: string): Promise<boolean | Gone> {
    return this.#write(
      (s) => s.remove(id),
      (removed) => (removed ? { remove: id } : null),
    );
  }
  importRows(rows: (QaDraft & { line: number })[], now: number): Promise<ReturnType<QaStore["importRows"]> | Gone> {
    return this.#write(
      (s) => s.importRows(rows, now),
      (result) => (result.imported ? { rebuildAll: true } : null),
    );
  }
}
