import { RpcTarget } from "cloudflare:workers";
import type { QaPair } from "../../../contract";
import type { Gone } from "../gone";
import type { HubCore } from "../hub-core";
import { QaStore, type QaDraft, type QaWriteResult } from "../qa-store";
import { whenOpen } from "./run";

/**
 * `hub.qa()`: the assistant's curated answers (qa-store.ts), as the owner's routes reach them; the
 * turn matches them in `beginTurn` (hub-qa.ts). Every method answers `gone` once the assistant was
 * deleted. Writes move the pairs' revision, so the next turn's matcher sees them.
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
    return this.#with((s) => s.create(draft, now));
  }
  update(id: string, patch: Partial<QaDraft>, now: number): Promise<QaWriteResult | Gone> {
    return this.#with((s) => s.update(id, patch, now));
  }
  remove(id: string): Promise<boolean | Gone> {
    return this.#with((s) => s.remove(id));
  }
  importRows(rows: (QaDraft & { line: number })[], now: number): Promise<ReturnType<QaStore["importRows"]> | Gone> {
    return this.#with((s) => s.importRows(rows, now));
  }
}
