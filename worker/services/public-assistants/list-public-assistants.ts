import { unlessGone } from "../../assistant/gone";
import { and, desc, eq, type SQL } from "drizzle-orm";
import type { PublicAssistant } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import { callFacet, getAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { toKnowledgeFile, toPublicAssistant, type PublicAssistantRow } from "./to-public-assistant";

/**
 * The owner's assistants (newest first) from D1 (one query), with their files and session counts
 * from each assistant's own object (one short call each, in parallel). With `assistantId`, that one only.
 * An object that fails (busy, moving a large legacy base, broken) costs its card its files and
 * stats (`stats.unavailable`), never the owner's whole list.
 */
export async function loadPublicAssistants(ctx: ServiceContext, userId: string, assistantId?: string): Promise<PublicAssistant[]> {
  const owned: SQL[] = [eq(publicAssistants.userId, userId)];
  if (assistantId) owned.push(eq(publicAssistants.id, assistantId));
  const rows = await ctx.db
    .select()
    .from(publicAssistants)
    .where(and(...owned))
    .orderBy(desc(publicAssistants.createdAt), desc(publicAssistants.id));
  return withCardStats(ctx, rows);
}

/** Rows already read (the route guard's, for one assistant) as the list shows them, each with its card's stats. */
export async function withCardStats(ctx: ServiceContext, rows: readonly PublicAssistantRow[]): Promise<PublicAssistant[]> {
  const stats = await Promise.allSettled(rows.map((row) => callFacet(getAssistantHub(ctx.env, row.id).history(), (h) => h.cardStats())));
  return rows.map((row, i) => {
    const card = stats[i]!;
    if (card.status === "fulfilled") {
      const { files, sessions } = unlessGone(card.value, { files: [], sessions: 0 });
      return toPublicAssistant(row, files.map(toKnowledgeFile), sessions);
    }
    console.error(JSON.stringify({ event: "assistant-card-stats-failed", assistantId: row.id, error: String(card.reason) }));
    return { ...toPublicAssistant(row, [], 0), stats: { totalSessions: 0, unavailable: true } };
  });
}

/** GET /api/public-assistants: the workspace's assistants (`userId`: the workspace's id), newest first, keys masked. */
export async function listPublicAssistants({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<PublicAssistant[]> {
  return loadPublicAssistants(ctx, input.userId);
}
