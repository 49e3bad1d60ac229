import { gone, type Gone } from "../gone";
import type { OpenedHub } from "../hub-gate";
import type { HubCore } from "../hub-core";

/**
 * Runs one facet call: through the gate (`gone` when the assistant no longer exists), then `use`.
 * No import from `cloudflare:workers`, so the facets' logic stays plain.
 */
export async function whenOpen<T>(core: HubCore, use: (opened: OpenedHub) => T | Promise<T>): Promise<T | Gone> {
  const opened = await core.open();
  return opened ? use(opened) : gone;
}

/**
 * `whenOpen` for a step whose storage error must not cross RPC as a throw: logged, answered
 * `{ ok: false, reason: "failed" }` (the route answers a retryable 503).
 */
export async function guarded<T>(core: HubCore, method: string, use: (opened: OpenedHub) => T | Promise<T>): Promise<T | Gone | { ok: false; reason: "failed" }> {
  try {
    return await whenOpen(core, use);
  } catch (error) {
    console.error(JSON.stringify({ event: "assistant-hub-step-failed", assistantId: core.assistantId, method, error: String(error) }));
    return { ok: false, reason: "failed" };
  }
}
