import { RpcTarget } from "cloudflare:workers";
import type { BudgetUsage } from "../../../contract";
import { AssistantBudget } from "../../budgets/assistant-budget";
import type { Gone } from "../gone";
import type { HubCore } from "../hub-core";
import { guarded } from "./run";

/**
 * `hub.budgets()`: the assistant's monthly budget as the owner reads it, and the owner's
 * all-assistants pause (budgets/; counted inside `beginTurn` and `admitApiCall`). Never throws:
 * a storage error is answered `failed`; `gone` once the assistant was deleted.
 */
export class BudgetsFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  /** This month's use of the assistant's own budget, and whether the owner's budget pauses it. */
  usage(): Promise<{ ok: true; usage: BudgetUsage & { ownerPaused: boolean } } | { ok: false; reason: "failed" } | Gone> {
    return guarded(this.#core, "budgetUsage", (opened) => ({ ok: true as const, usage: new AssistantBudget(this.#core.storage).usage(opened.assistant.record.config, Date.now()) }));
  }

  /** The owner's room: the all-assistants budget pauses this assistant for `month`, or no longer. */
  async setOwnerPause(input: { month: string; paused: boolean }): Promise<{ ok: boolean }> {
    try {
      if (this.#core.gate.erased()) return { ok: false };
      this.#core.gate.migrate();
      new AssistantBudget(this.#core.storage).setOwnerPaused(input.month, input.paused);
      return { ok: true };
    } catch (error) {
      console.error(JSON.stringify({ event: "assistant-hub-step-failed", assistantId: this.#core.assistantId, method: "setOwnerPause", error: String(error) }));
      return { ok: false };
    }
  }
}
