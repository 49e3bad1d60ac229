import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { ChatListResponse } from "../../../contract";
import { chats, messages } from "../../db/schema";
import type { ServiceContext } from "../context";
import { toChat } from "./to-chat";

export interface ListChatsInput {
  userId: string;
  search?: string | undefined;
  projectId?: string | undefined;
  page: number;
  limit: number;
}

/** `%text%` for LIKE, with LIKE's own wildcards escaped (ESCAPE '\'). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * The user's chats, newest activity first, `limit` per page. `search` matches the title or any
 * message's text (case-insensitive for ASCII, as SQLite's LIKE is); `projectId` keeps one project's.
 */
export async function listChats({ ctx, input }: { ctx: ServiceContext; input: ListChatsInput }): Promise<ChatListResponse> {
  const conditions: SQL[] = [eq(chats.userId, input.userId)];
  if (input.projectId) conditions.push(eq(chats.projectId, input.projectId));
  if (input.search) {
    const pattern = likePattern(input.search);
    conditions.push(
      sql`(${chats.title} LIKE ${pattern} ESCAPE '\\' OR EXISTS (SELECT 1 FROM ${messages} WHERE ${messages.chatId} = ${chats.id} AND ${messages.content} LIKE ${pattern} ESCAPE '\\'))`,
    );
  }
  const where = and(...conditions);
  const [rows, [count]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(chats)
      .where(where)
      .orderBy(desc(chats.updatedAt), desc(chats.id))
      .limit(input.limit)
      .offset((input.page - 1) * input.limit),
    ctx.db.select({ total: sql<number>`count(*)` }).from(chats).where(where),
  ]);
  const total = Number(count?.total ?? 0);
  return {
    chats: rows.map(toChat),
    total,
    totalPages: Math.max(1, Math.ceil(total / input.limit)),
    currentPage: input.page,
  };
}
