import { count, desc, eq, sql } from "drizzle-orm";
import type { ChatHistoryResponse } from "../../../contract";
import { visitorSessions } from "../../db/schema";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { withMessages } from "./to-visitor-session";

/** A session's last activity: its last message, or its start when it has none. */
export const lastActivity = sql<number>`coalesce(${visitorSessions.lastMessageAt}, ${visitorSessions.startedAt})`;

/** GET …/chats: the assistant's visitor sessions with their messages, newest activity first, `limit` per page. */
export async function listVisitorSessions({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; page: number; limit: number };
}): Promise<ChatHistoryResponse> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const ofAssistant = eq(visitorSessions.assistantId, assistant.id);
  const [rows, [counted]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(visitorSessions)
      .where(ofAssistant)
      .orderBy(desc(lastActivity), desc(visitorSessions.id))
      .limit(input.limit)
      .offset((input.page - 1) * input.limit),
    ctx.db.select({ total: count() }).from(visitorSessions).where(ofAssistant),
  ]);
  const total = Number(counted?.total ?? 0);
  return {
    sessions: await withMessages(ctx, rows),
    totalPages: Math.max(1, Math.ceil(total / input.limit)),
    currentPage: input.page,
    total,
  };
}
