import { and, eq } from "drizzle-orm";
import { writeBatch } from "../../db/client";
import { chats, messages } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { findChat } from "./find-chat";

/** Deletes one of the user's chats and its messages, together; another user's chat is 404. */
export async function deleteChat({ ctx, input }: { ctx: ServiceContext; input: { userId: string; chatId: string } }): Promise<void> {
  const chat = await findChat({ ctx, input });
  if (!chat) throw notFound();
  await writeBatch(ctx.db, [
    ctx.db.delete(messages).where(eq(messages.chatId, chat.id)),
    ctx.db.delete(chats).where(and(eq(chats.id, chat.id), eq(chats.userId, input.userId))),
  ]);
}
