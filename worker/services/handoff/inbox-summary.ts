import { desc, eq } from "drizzle-orm";
import { isGone } from "../../assistant/gone";
import { handoffLimits, type InboxSummaryResponse } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import { callFacet, getAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";

/**
 * GET /api/inbox/summary: for the navigation's badge, each of the owner's assistants (newest
 * first, at most handoffLimits.summaryMaxAssistants) with the conversations waiting for a person
 * and the visitor messages not read; their objects are asked a few at a time. An object that does
 * not answer is left out (logged): the badge never fails the page.
 */
export async function inboxSummary({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<InboxSummaryResponse> {
  const rows = await ctx.db
    .select({ id: publicAssistants.id, name: publicAssistants.name })
    .from(publicAssistants)
    .where(eq(publicAssistants.userId, input.userId))
    .orderBy(desc(publicAssistants.createdAt))
    .limit(handoffLimits.summaryMaxAssistants);
  const out: InboxSummaryResponse["assistants"] = [];
  for (let i = 0; i < rows.length; i += handoffLimits.summaryConcurrency) {
    const batch = rows.slice(i, i + handoffLimits.summaryConcurrency);
    const results = await Promise.allSettled(batch.map((row) => callFacet(getAssistantHub(ctx.env, row.id).handoff(), (h) => h.summary())));
    for (const [j, result] of results.entries()) {
      const row = batch[j]!;
      if (result.status === "rejected") {
        console.error(JSON.stringify({ event: "inbox-summary-failed", assistantId: row.id, error: String(result.reason) }));
        continue;
      }
      if (isGone(result.value)) continue;
      out.push({ assistantId: row.id, name: row.name, ...result.value });
    }
  }
  return { assistants: out };
}
