import { asc, eq } from "drizzle-orm";
import type { ChatDetailResponse } from "../../../contract";
import { messages } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { findChat } from "./find-chat";
import { toChat, toChatMessage } from "./to-chat";

/** One of the user's chats with all its messages, oldest first; another user's chat is 404. */
export async function getChat({ ctx, input }: { ctx: ServiceContext; input: { userId: string; chatId: string } }): Promise<ChatDetailResponse> {
  const chat = await findChat({ ctx, input });
  if (!chat) throw notFound();
  const rows = await ctx.db.select().from(messages).where(eq(messages.chatId, chat.id)).orderBy(asc(messages.createdAt), asc(messages.id));
  return { chat: toChat(chat), messages: rows.map(toChatMessage) };
}
