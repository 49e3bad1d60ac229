import { RpcTarget } from "cloudflare:workers";
import { publicAssistantServerMessages, type IdentitySecretCreated, type IdentitySecretStatus } from "../../../contract";
import { AppError } from "../../http/errors";
import type { Gone } from "../gone";
import type { HubCore } from "../hub-core";
import { whenOpen } from "./run";

/** `failed` carries a contract sentence (ENCRYPTION_KEY missing or too short, or the storage). */
export type IdentitySecretResult<T> = { ok: true; value: T } | { ok: false; reason: "failed"; error: string };

/**
 * `hub.identity()`: the signed-visitor secrets as the owner manages them (identity-secrets.ts;
 * the caller checked ownership in D1). Never throws; `gone` once the assistant was deleted.
 */
export class IdentityFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  /** The secrets as the owner sees them (masked). */
  status(): Promise<IdentitySecretResult<IdentitySecretStatus> | Gone> {
    return whenOpen(this.#core, () => this.#step(async () => this.#core.identity.status()));
  }

  /**
   * Creates the first secret or rotates (the current one verifies `graceHours` more). The new
   * secret is in this answer only. When a secret stops now (the replaced one with no grace, or a
   * previous one still in its grace, which a rotation replaces), the signed-in visitors' open
   * sockets close to be verified again; a grace that runs out by itself is the alarm's.
   */
  rotate(graceHours: number): Promise<IdentitySecretResult<IdentitySecretCreated> | Gone> {
    return whenOpen(this.#core, async (opened) => {
      const identity = this.#core.identity;
      const before = identity.status();
      const stops = before.previous !== null || (before.current !== null && graceHours === 0);
      const result = await this.#step(() => identity.rotate(this.#core.assistantId, graceHours));
      if (result.ok && stops) await this.#core.reverifySockets(opened.store);
      const graceEnd = identity.graceEnd();
      if (result.ok && graceEnd !== null) await this.#core.alarms.schedule("identity-grace", graceEnd, "always");
      return result;
    });
  }

  /** Ends the previous secret's grace now; the signed-in visitors' open sockets are verified again. */
  endGrace(): Promise<IdentitySecretResult<IdentitySecretStatus> | Gone> {
    return whenOpen(this.#core, async (opened) => {
      const hadPrevious = this.#core.identity.status().previous !== null;
      const result = await this.#step(async () => this.#core.identity.endGrace());
      if (result.ok && hadPrevious) await this.#core.reverifySockets(opened.store);
      return result;
    });
  }

  async #step<T>(step: () => Promise<T>): Promise<IdentitySecretResult<T>> {
    try {
      return { ok: true, value: await step() };
    } catch (error) {
      console.error(JSON.stringify({ event: "identity-secret-step-failed", assistantId: this.#core.assistantId, error: String(error) }));
      return { ok: false, reason: "failed", error: error instanceof AppError ? error.message : publicAssistantServerMessages.assistantBusy };
    }
  }
}
