import { and, eq } from "drizzle-orm";
import type { Chat, UpdateChatBody } from "../../../contract";
import { chats } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { findProject } from "../projects/find-project";
import { findChat } from "./find-chat";
import { toChat } from "./to-chat";

/**
 * Renames a chat or moves it into (or, with projectId null, out of) one of the user's projects.
 * Another user's chat or project answers 404. The chat's activity time is left as it is, so a
 * rename does not reorder the history.
 */
export async function updateChat({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; chatId: string; changes: UpdateChatBody };
}): Promise<Chat> {
  const chat = await findChat({ ctx, input });
  if (!chat) throw notFound();
  const { title, projectId } = input.changes;
  if (projectId && !(await findProject({ ctx, input: { userId: input.userId, projectId } }))) throw notFound();
  const set: Partial<typeof chats.$inferInsert> = {};
  if (title !== undefined) set.title = title.trim();
  if (projectId !== undefined) set.projectId = projectId;
  const [row] = await ctx.db
    .update(chats)
    .set(set)
    .where(and(eq(chats.id, chat.id), eq(chats.userId, input.userId)))
    .returning();
  if (!row) throw notFound();
  return toChat(row);
}
