import { unlessGone } from "../../assistant/gone";
import { eq } from "drizzle-orm";
import type { ChatDebugResponse } from "../../../contract";
import { publicAssistants } from "../../db/schema";
import type { Env } from "../../env";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";

/** Visitor sessions of each assistant, asked of their own objects in parallel. */
export async function sessionCounts(env: Pick<Env, "ASSISTANT_HUB">, assistantIds: readonly string[]): Promise<Map<string, number>> {
  const counts = await Promise.all(assistantIds.map((id) => reachAssistantHub(env, id).history().count().then((n) => unlessGone(n, 0))));
  return new Map(assistantIds.map((id, i) => [id, counts[i]!]));
}

/**
 * GET …/chats/debug: the visitor sessions across all the workspace's assistants, and this
 * assistant's. "In DB" is scoped to the owner: another owner's numbers are never revealed.
 */
export async function countVisitorSessions({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
}): Promise<ChatDebugResponse> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const owned = await ctx.db.select({ id: publicAssistants.id }).from(publicAssistants).where(eq(publicAssistants.userId, assistant.userId));
  const counts = await sessionCounts(ctx.env, owned.map((a) => a.id));
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return { stats: { totalChatsInDB: total, assistantChats: counts.get(assistant.id) ?? 0 } };
}
