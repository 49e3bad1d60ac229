import type { ChatMessage, MessageRole, MessageStatus } from "../../contract";
import { parseFileNames } from "../services/chats/to-chat";
import { applyStorageMigrations } from "../durable-objects/storage-migrations";
import { guestStorageMigrations } from "./guest-storage-migrations";
import type { ChatStore, ChatWithInstructions, TurnRecord } from "./store";

type Row = Record<string, SqlStorageValue>;

const toMessage = (r: Row): ChatMessage => ({
  id: String(r.id),
  chatId: String(r.chat_id),
  role: String(r.role) as MessageRole,
  content: { type: "text", data: String(r.content) },
  files: parseFileNames(String(r.files)),
  timestamp: Number(r.created_at),
  status: String(r.status) as MessageStatus,
  error: r.error === null ? null : String(r.error),
});

/**
 * A guest's chats, in their room's own SQLite storage (ctx.storage.sql): they live only as long as
 * the guest session, and the room's idle alarm erases them. Guests have no projects or settings.
 */
export class GuestChatStore implements ChatStore {
  private migrated = false;
  constructor(private readonly storage: DurableObjectStorage) {}

  private get sql() {
    if (!this.migrated) {
      applyStorageMigrations(this.storage, guestStorageMigrations, "guest");
      this.migrated = true;
    }
    return this.storage.sql;
  }

  /** After the storage was erased (idle alarm), the tables must be created again on next use. */
  forgetSchema() {
    this.migrated = false;
  }

  async findChat(chatId: string): Promise<ChatWithInstructions | null> {
    const [r] = this.sql.exec("SELECT * FROM chats WHERE id = ?", chatId).toArray();
    if (!r) return null;
    return {
      id: String(r.id),
      title: String(r.title),
      projectId: null,
      model: r.model === null ? null : String(r.model),
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
      instructions: "",
    };
  }

  async findProjectInstructions(): Promise<string | null> {
    return null;
  }

  async recentMessages(chatId: string, limit: number): Promise<ChatMessage[]> {
    const rows = this.sql.exec("SELECT * FROM messages WHERE chat_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?", chatId, limit).toArray();
    return rows.reverse().map(toMessage);
  }

  async preferredModel(): Promise<string | null> {
    return null;
  }

  async startTurn(record: TurnRecord): Promise<void> {
    const sql = this.sql;
    this.storage.transactionSync(() => {
      const { chat } = record;
      if (record.isNewChat) {
        sql.exec(
          "INSERT INTO chats (id, title, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
          chat.id,
          chat.title,
          chat.model,
          chat.createdAt,
          chat.updatedAt,
        );
      } else {
        sql.exec("UPDATE chats SET updated_at = ? WHERE id = ?", chat.updatedAt, chat.id);
      }
      for (const m of [record.userMessage, record.reply]) {
        sql.exec(
          "INSERT INTO messages (id, chat_id, role, content, files, status, error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          m.id,
          m.chatId,
          m.role,
          m.content.data,
          JSON.stringify(m.files),
          m.status,
          m.error ?? null,
          m.timestamp,
        );
      }
    });
  }

  async saveReply(reply: ChatMessage, chatUpdatedAt: number, title?: string): Promise<void> {
    const sql = this.sql;
    this.storage.transactionSync(() => {
      sql.exec("UPDATE messages SET content = ?, status = ?, error = ? WHERE id = ?", reply.content.data, reply.status, reply.error ?? null, reply.id);
      sql.exec("UPDATE chats SET updated_at = ?, title = coalesce(?, title) WHERE id = ?", chatUpdatedAt, title ?? null, reply.chatId);
    });
  }

  async setTitle(chatId: string, title: string): Promise<void> {
    this.sql.exec("UPDATE chats SET title = ? WHERE id = ?", title, chatId);
  }
}
