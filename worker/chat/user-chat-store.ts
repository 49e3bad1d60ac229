import { and, desc, eq } from "drizzle-orm";
import type { ChatMessage } from "../../contract";
import { writeBatch, type Db } from "../db/client";
import { chats, messages, projects } from "../db/schema";
import { toChat, toChatMessage, toMessageRow } from "../services/chats/to-chat";
import { findProject } from "../services/projects/find-project";
import { getSettings } from "../services/settings/get-settings";
import type { Env } from "../env";
import type { ChatStore, ChatWithInstructions, TurnRecord } from "./store";

/**
 * How long a room trusts its copy of the user's chosen model. PUT /api/settings tells the room at
 * once (ChatRoom.settingsChanged); this only bounds how stale it can get if that call failed.
 */
const PREFERRED_MODEL_TTL_MS = 5 * 60 * 1000;

/** A signed-in user's chats, in D1; every query is filtered by the user's id. */
export class UserChatStore implements ChatStore {
  private readonly ctx: { env: Env; db: Db };
  private preferred: { model: string | null; at: number } | null = null;
  constructor(
    env: Env,
    private readonly db: Db,
    private readonly userId: string,
  ) {
    this.ctx = { env, db };
  }

  async findChat(chatId: string): Promise<ChatWithInstructions | null> {
    const [row] = await this.db
      .select({ chat: chats, instructions: projects.instructions })
      .from(chats)
      .leftJoin(projects, and(eq(projects.id, chats.projectId), eq(projects.userId, this.userId)))
      .where(and(eq(chats.id, chatId), eq(chats.userId, this.userId)))
      .limit(1);
    return row ? { ...toChat(row.chat), instructions: row.instructions ?? "" } : null;
  }

  async findProjectInstructions(projectId: string): Promise<string | null> {
    const project = await findProject({ ctx: this.ctx, input: { userId: this.userId, projectId } });
    return project ? project.instructions : null;
  }

  async recentMessages(chatId: string, limit: number): Promise<ChatMessage[]> {
    // The chat was checked to be the user's by findChat; messages have no owner column.
    const rows = await this.db
      .select()
      .from(messages)
      .where(eq(messages.chatId, chatId))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(limit);
    return rows.reverse().map(toChatMessage);
  }

  /** The user's chosen model, kept in the room's memory so a new chat starts without reading it. */
  async preferredModel(): Promise<string | null> {
    if (this.preferred && Date.now() - this.preferred.at < PREFERRED_MODEL_TTL_MS) return this.preferred.model;
    const { model } = await getSettings({ ctx: this.ctx, input: { userId: this.userId } });
    this.preferred = { model, at: Date.now() };
    return model;
  }

  forgetPreferredModel() {
    this.preferred = null;
  }

  async startTurn(record: TurnRecord): Promise<void> {
    const { chat } = record;
    const writeMessages = [
      this.db.insert(messages).values(toMessageRow(record.userMessage)),
      this.db.insert(messages).values(toMessageRow(record.reply)),
    ] as const;
    if (record.isNewChat) {
      await writeBatch(this.db, [
        this.db.insert(chats).values({ ...chat, userId: this.userId }),
        ...writeMessages,
      ]);
    } else {
      await writeBatch(this.db, [
        ...writeMessages,
        this.db
          .update(chats)
          .set({ updatedAt: chat.updatedAt })
          .where(and(eq(chats.id, chat.id), eq(chats.userId, this.userId))),
      ]);
    }
  }

  async saveReply(reply: ChatMessage, chatUpdatedAt: number, title?: string): Promise<void> {
    await writeBatch(this.db, [
      this.db
        .update(messages)
        .set({ content: reply.content.data, status: reply.status, error: reply.error ?? null })
        .where(eq(messages.id, reply.id)),
      this.db
        .update(chats)
        .set(title === undefined ? { updatedAt: chatUpdatedAt } : { updatedAt: chatUpdatedAt, title })
        .where(and(eq(chats.id, reply.chatId), eq(chats.userId, this.userId))),
    ]);
  }

  async setTitle(chatId: string, title: string): Promise<void> {
    await this.db
      .update(chats)
      .set({ title })
      .where(and(eq(chats.id, chatId), eq(chats.userId, this.userId)));
  }
}
