import { and, desc, eq, type SQL } from "drizzle-orm";
import type { PublicAssistant } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import { getAssistantHub } from "../../widget/get-assistant-hub";
import type { ServiceContext } from "../context";
import { toKnowledgeFile, toPublicAssistant } from "./to-public-assistant";

/**
 * The owner's assistants (newest first) from D1 (one query), with their files and session counts
 * from each assistant's own object (one short call each, in parallel). With `assistantId`, that one only.
 */
export async function loadPublicAssistants(ctx: ServiceContext, userId: string, assistantId?: string): Promise<PublicAssistant[]> {
  const owned: SQL[] = [eq(publicAssistants.userId, userId)];
  if (assistantId) owned.push(eq(publicAssistants.id, assistantId));
  const rows = await ctx.db
    .select()
    .from(publicAssistants)
    .where(and(...owned))
    .orderBy(desc(publicAssistants.createdAt), desc(publicAssistants.id));
  const stats = await Promise.all(rows.map((row) => getAssistantHub(ctx.env, row.id).cardStats({ assistantId: row.id })));
  return rows.map((row, i) => toPublicAssistant(row, stats[i]!.files.map(toKnowledgeFile), stats[i]!.sessions));
}

/** GET /api/public-assistants: the owner's assistants, newest first, keys masked. */
export async function listPublicAssistants({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<PublicAssistant[]> {
  return loadPublicAssistants(ctx, input.userId);
}
