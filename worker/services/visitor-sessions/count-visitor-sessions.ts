import { count, eq } from "drizzle-orm";
import type { ChatDebugResponse } from "../../../contract";
import { publicAssistants, visitorSessions } from "../../db/schema";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";

/**
 * GET …/chats/debug: the owner's visitor sessions across all their assistants, and this
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
  const [[owner], [own]] = await ctx.db.batch([
    ctx.db
      .select({ total: count() })
      .from(visitorSessions)
      .innerJoin(publicAssistants, eq(visitorSessions.assistantId, publicAssistants.id))
      .where(eq(publicAssistants.userId, input.userId)),
    ctx.db.select({ total: count() }).from(visitorSessions).where(eq(visitorSessions.assistantId, assistant.id)),
  ]);
  return { stats: { totalChatsInDB: Number(owner?.total ?? 0), assistantChats: Number(own?.total ?? 0) } };
}
