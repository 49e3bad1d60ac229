import type { Env } from "../env";
import { callFacet, getAssistantHub } from "../durable-objects/stubs";

/**
 * Tells each of the owner's assistants (their ids read from D1: only when the all-assistants
 * budget pauses or is changed, never on a visitor's path) whether that budget pauses them this
 * month. An assistant that does not answer is logged; it learns the state with the answer to its
 * next report to the room. Returns how many were told. Never throws.
 */
export async function tellOwnerAssistants(env: Env, userId: string, month: string, paused: boolean): Promise<number> {
  try {
    const { results } = await env.DB.prepare("SELECT id FROM public_assistants WHERE user_id = ?").bind(userId).all<{ id: string }>();
    const told = await Promise.allSettled(results.map((r) => callFacet(getAssistantHub(env, r.id).budgets(), (b) => b.setOwnerPause({ month, paused }))));
    told.forEach((t, i) => {
      if (t.status === "rejected") console.error(JSON.stringify({ event: "owner-budget-tell-failed", assistantId: results[i]!.id, error: String(t.reason) }));
    });
    return told.filter((t) => t.status === "fulfilled").length;
  } catch (error) {
    console.error(JSON.stringify({ event: "owner-budget-tell-failed", userId, error: String(error) }));
    return 0;
  }
}
