import { and, eq } from "drizzle-orm";
import { chats } from "../../db/schema";
import type { ServiceContext } from "../context";
import type { ChatRow } from "./to-chat";

/** The user's chat, or null when it does not exist or belongs to someone else. */
export async function findChat({ ctx, input }: { ctx: ServiceContext; input: { userId: string; chatId: string } }): Promise<ChatRow | null> {
  const [row] = await ctx.db
    .select()
    .from(chats)
    .where(and(eq(chats.id, input.chatId), eq(chats.userId, input.userId)))
    .limit(1);
  return row ?? null;
}
