import type { Chat, ChatDetailResponse, ChatListResponse, ChatMessage, MessageRole, MessageStatus, MessageVersion, UserSettings } from "../../contract";
import { applyStorageMigrations } from "../durable-objects/storage-migrations";
import { withVersions } from "./reply-versions";
import { roomStorageMigrations } from "./room-storage-migrations";
import type { ChatStore, ChatWithInstructions, RegenerateRecord, TurnRecord } from "./store";

/** A stored row: the room's SQLite, or a legacy D1 row of the same columns (chat/legacy-import.ts). */
type Row = Record<string, unknown>;
type SqlHost = Pick<DurableObjectStorage, "sql" | "transactionSync">;

export interface ListChatsInput {
  search?: string | undefined;
  projectId?: string | undefined;
  page: number;
  limit: number;
}

export interface ChatChanges {
  title?: string | undefined;
  /** null: out of its project. */
  projectId?: string | null | undefined;
}

/** Where a page of a chat's messages starts: after this (time, rowid). */
export interface MessageCursor {
  at: number;
  rowid: number;
}

export type ChatDetailPage = ChatDetailResponse & { next: MessageCursor | null };

/** The key of the user's settings (a JSON object) in `room_state`. */
export const SETTINGS_KEY = "settings";

/** A page of a chat's messages holds about this much text (RPC answers are capped at 32 MiB). */
const DETAIL_PAGE_BYTES = 4 * 1024 * 1024;

/** `%text%` for LIKE, with LIKE's own wildcards escaped (ESCAPE '\'). */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** Stored files are a JSON array of { name }; anything else reads as no files. */
export function parseFileNames(json: string): { name: string }[] {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.flatMap((f: unknown) =>
      f && typeof f === "object" && typeof (f as { name?: unknown }).name === "string" ? [{ name: (f as { name: string }).name }] : [],
    );
  } catch {
    return [];
  }
}

const nullableText = (v: unknown) => (v === null || v === undefined ? null : String(v));

const toChat = (r: Row): Chat => ({
  id: String(r.id),
  title: String(r.title),
  projectId: nullableText(r.project_id),
  model: nullableText(r.model),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export const toMessage = (r: Row): ChatMessage => ({
  id: String(r.id),
  chatId: String(r.chat_id),
  role: String(r.role) as MessageRole,
  content: { type: "text", data: String(r.content) },
  files: parseFileNames(String(r.files)),
  timestamp: Number(r.created_at),
  status: String(r.status) as MessageStatus,
  error: nullableText(r.error),
});

const toVersion = (r: Row): MessageVersion => ({
  content: { type: "text", data: String(r.content) },
  status: String(r.status) as MessageStatus,
  error: nullableText(r.error),
  createdAt: Number(r.created_at),
});

/**
 * The chats of one room, in the room's own SQLite storage (ctx.storage.sql): a signed-in user's
 * chats, messages, projects and settings (moved from D1: chat/legacy-import.ts), or a guest's chats
 * (erased by the room's idle alarm; guests have no projects or settings). Everything here is one
 * user's, so no query needs an owner filter, and every call is a local, synchronous SQLite call:
 * a turn reads and writes no D1. Projects and settings: chat/room-projects.ts.
 */
export class RoomStore implements ChatStore {
  private migrated = false;
  constructor(private readonly storage: SqlHost) {}

  /** The storage, its schema brought up to date on first use. */
  get sql(): SqlStorage {
    if (!this.migrated) {
      applyStorageMigrations(this.storage, roomStorageMigrations, "chat room");
      this.migrated = true;
    }
    return this.storage.sql;
  }

  /** True once the room's schema was made (a guest id never used has none: reading it must create nothing). */
  exists(): boolean {
    return this.migrated || this.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chats'").toArray().length > 0;
  }

  /** After the storage was erased (idle alarm), the tables must be created again on next use. */
  forgetSchema() {
    this.migrated = false;
  }

  /** One synchronous transaction; the schema is brought up to date first (its migrations are transactions of their own). */
  transaction<T>(run: () => T): T {
    void this.sql;
    return this.storage.transactionSync(run);
  }

  // ── A turn (ChatStore) ──────────────────────────────────────────────────────────────────────

  async findChat(chatId: string): Promise<ChatWithInstructions | null> {
    const [r] = this.sql
      .exec("SELECT c.*, p.instructions FROM chats c LEFT JOIN projects p ON p.id = c.project_id WHERE c.id = ?", chatId)
      .toArray();
    return r ? { ...toChat(r), instructions: r.instructions === null ? "" : String(r.instructions) } : null;
  }

  async findProjectInstructions(projectId: string): Promise<string | null> {
    const [r] = this.sql.exec("SELECT instructions FROM projects WHERE id = ?", projectId).toArray();
    return r ? String(r.instructions) : null;
  }

  async recentMessages(chatId: string, limit: number): Promise<ChatMessage[]> {
    const rows = this.sql.exec("SELECT * FROM messages WHERE chat_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?", chatId, limit).toArray();
    return rows.reverse().map(toMessage);
  }

  async preferredModel(): Promise<string | null> {
    return this.settings().model;
  }

  async startTurn(record: TurnRecord): Promise<void> {
    const sql = this.sql;
    this.transaction(() => {
      const { chat } = record;
      if (record.isNewChat) {
        sql.exec(
          "INSERT INTO chats (id, title, project_id, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
          chat.id,
          chat.title,
          chat.projectId,
          chat.model,
          chat.createdAt,
          chat.updatedAt,
        );
      } else {
        sql.exec("UPDATE chats SET updated_at = ? WHERE id = ?", chat.updatedAt, chat.id);
      }
      for (const m of [record.userMessage, record.reply]) this.insertMessage(m);
    });
  }

  async saveReply(reply: ChatMessage, chatUpdatedAt: number, title?: string): Promise<{ title: string } | null> {
    const sql = this.sql;
    return this.transaction(() => {
      sql.exec("UPDATE messages SET content = ?, status = ?, error = ? WHERE id = ?", reply.content.data, reply.status, reply.error ?? null, reply.id);
      const [chat] = sql
        .exec(
          "UPDATE chats SET updated_at = ?, title = CASE WHEN title = '' THEN coalesce(?, title) ELSE title END WHERE id = ? RETURNING title",
          chatUpdatedAt,
          title ?? null,
          reply.chatId,
        )
        .toArray();
      return chat ? { title: String(chat.title) } : null;
    });
  }

  async setTitle(chatId: string, title: string, replacing: string): Promise<boolean> {
    return this.sql.exec("UPDATE chats SET title = ? WHERE id = ? AND title = ?", title, chatId, replacing).rowsWritten > 0;
  }

  async startRegenerate({ reply, at, keepEarlier }: RegenerateRecord): Promise<MessageVersion[] | null> {
    const sql = this.sql;
    return this.transaction(() => {
      const [row] = sql.exec("SELECT * FROM messages WHERE id = ? AND chat_id = ?", reply.id, reply.chatId).toArray();
      if (!row) return null;
      sql.exec(
        "INSERT INTO message_versions (message_id, chat_id, content, status, error, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        reply.id,
        reply.chatId,
        String(row.content),
        String(row.status),
        nullableText(row.error),
        Number(row.version_at ?? row.created_at),
      );
      sql.exec(
        "DELETE FROM message_versions WHERE message_id = ? AND id NOT IN (SELECT id FROM message_versions WHERE message_id = ? ORDER BY id DESC LIMIT ?)",
        reply.id,
        reply.id,
        keepEarlier,
      );
      sql.exec("UPDATE messages SET content = ?, status = ?, error = ?, version_at = ? WHERE id = ?", reply.content.data, reply.status, reply.error ?? null, at, reply.id);
      sql.exec("UPDATE chats SET updated_at = ? WHERE id = ?", at, reply.chatId);
      return this.earlierVersions(reply.id);
    });
  }

  async loadVersions(message: ChatMessage): Promise<ChatMessage> {
    const [row] = this.sql.exec("SELECT version_at FROM messages WHERE id = ?", message.id).toArray();
    if (!row || row.version_at === null || row.version_at === undefined) return message;
    return withVersions(message, this.earlierVersions(message.id), Number(row.version_at));
  }

  /** A reply's earlier versions, oldest first (bounded by chatLimits.maxReplyVersions when written). */
  private earlierVersions(messageId: string): MessageVersion[] {
    return this.sql.exec("SELECT content, status, error, created_at FROM message_versions WHERE message_id = ? ORDER BY id", messageId).toArray().map(toVersion);
  }

  /** One message row (also the legacy import's, with its stored time). */
  insertMessage(m: ChatMessage) {
    this.sql.exec(
      "INSERT OR IGNORE INTO messages (id, chat_id, role, content, files, status, error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      m.id,
      m.chatId,
      m.role,
      m.content.data,
      JSON.stringify(m.files.map((f) => ({ name: f.name }))),
      m.status,
      m.error ?? null,
      m.timestamp,
    );
  }

  // ── The history (GET/PATCH/DELETE /api/chats) ───────────────────────────────────────────────

  /**
   * Newest activity first, `limit` per page. `search` matches the title or any message's text
   * (case-insensitive for ASCII, as SQLite's LIKE is); `projectId` keeps one project's chats.
   */
  listChats(input: ListChatsInput): ChatListResponse {
    const where: string[] = [];
    const binds: SqlStorageValue[] = [];
    if (input.projectId) {
      where.push("project_id = ?");
      binds.push(input.projectId);
    }
    if (input.search) {
      const pattern = likePattern(input.search);
      where.push("(title LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM messages m WHERE m.chat_id = chats.id AND m.content LIKE ? ESCAPE '\\'))");
      binds.push(pattern, pattern);
    }
    const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
    const total = Number(this.sql.exec(`SELECT count(*) AS n FROM chats ${clause}`, ...binds).one().n);
    const rows = this.sql
      .exec(`SELECT * FROM chats ${clause} ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`, ...binds, input.limit, (input.page - 1) * input.limit)
      .toArray();
    return { chats: rows.map(toChat), total, totalPages: Math.max(1, Math.ceil(total / input.limit)), currentPage: input.page };
  }

  /**
   * The chat and a page of its messages, oldest first, from just after `after`: at most
   * `budgetBytes` of text (always at least one message), so no single RPC answer nears the Durable
   * Object's 32 MiB limit however long the chat. `next`: where the following page starts, null at
   * the end. Null when there is no such chat.
   */
  chatDetailPage(chatId: string, after: MessageCursor | null = null, budgetBytes = DETAIL_PAGE_BYTES): ChatDetailPage | null {
    const [chat] = this.sql.exec("SELECT * FROM chats WHERE id = ?", chatId).toArray();
    if (!chat) return null;
    const from = after ?? { at: Number.MIN_SAFE_INTEGER, rowid: 0 };
    const rows = this.sql.exec(
      "SELECT rowid AS row_id, * FROM messages WHERE chat_id = ? AND (created_at > ? OR (created_at = ? AND rowid > ?)) ORDER BY created_at, rowid",
      chatId,
      from.at,
      from.at,
      from.rowid,
    );
    const messages: ChatMessage[] = [];
    let bytes = 0;
    let last: MessageCursor | null = null;
    for (const row of rows) {
      // A regenerated reply (version_at set) comes with its versions (the current one included).
      const message = row.version_at === null || row.version_at === undefined ? toMessage(row) : withVersions(toMessage(row), this.earlierVersions(String(row.id)), Number(row.version_at));
      // UTF-16 length × 3 bounds the UTF-8 bytes; the rest is the message's fixed fields.
      const versionsSize = (message.versions ?? []).reduce((n, v) => n + v.content.data.length * 3 + (v.error?.length ?? 0) * 3 + 96, 0);
      const size = String(row.content).length * 3 + String(row.files).length + 256 + versionsSize;
      if (last && bytes + size > budgetBytes) return { chat: toChat(chat), messages, next: last };
      bytes += size;
      messages.push(message);
      last = { at: Number(row.created_at), rowid: Number(row.row_id) };
    }
    return { chat: toChat(chat), messages, next: null };
  }

  /**
   * Renames a chat or moves it into (or, with projectId null, out of) a project. Null when the chat
   * or the project does not exist. The activity time is left as it is: a rename does not reorder
   * the history.
   */
  updateChat(chatId: string, changes: ChatChanges): Chat | null {
    const { title, projectId } = changes;
    if (projectId && !this.sql.exec("SELECT 1 FROM projects WHERE id = ?", projectId).toArray().length) return null;
    const sets: string[] = [];
    const binds: SqlStorageValue[] = [];
    if (title !== undefined) {
      sets.push("title = ?");
      binds.push(title.trim());
    }
    if (projectId !== undefined) {
      sets.push("project_id = ?");
      binds.push(projectId);
    }
    const [row] = sets.length
      ? this.sql.exec(`UPDATE chats SET ${sets.join(", ")} WHERE id = ? RETURNING *`, ...binds, chatId).toArray()
      : this.sql.exec("SELECT * FROM chats WHERE id = ?", chatId).toArray();
    return row ? toChat(row) : null;
  }

  /** Deletes a chat and its messages, together; false when there is no such chat. */
  deleteChat(chatId: string): boolean {
    const sql = this.sql;
    return this.transaction(() => {
      sql.exec("DELETE FROM message_versions WHERE chat_id = ?", chatId);
      sql.exec("DELETE FROM messages WHERE chat_id = ?", chatId);
      return sql.exec("DELETE FROM chats WHERE id = ?", chatId).rowsWritten > 0;
    });
  }

  // ── Settings (GET/PUT /api/settings) ────────────────────────────────────────────────────────

  /** The user's preferences; the defaults when none were saved (and always for guests). */
  settings(): UserSettings {
    return readSettings(this.state(SETTINGS_KEY));
  }

  saveSettings(settings: UserSettings): UserSettings {
    this.setState(SETTINGS_KEY, JSON.stringify(settings));
    return settings;
  }

  /** One value of `room_state`: the settings, the room's markers (legacy import done, …). */
  state(key: string): string | null {
    const [r] = this.sql.exec("SELECT value FROM room_state WHERE key = ?", key).toArray();
    return r ? String(r.value) : null;
  }

  setState(key: string, value: string) {
    this.sql.exec("INSERT INTO room_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }

  /** Account deletion: every chat, message, project and setting goes; the room's markers stay. Call inside a transaction. */
  eraseUserData() {
    const sql = this.sql;
    for (const table of ["message_versions", "messages", "chats", "projects"]) sql.exec(`DELETE FROM ${table}`);
    sql.exec("DELETE FROM room_state WHERE key = ?", SETTINGS_KEY);
  }
}

/** Stored settings are a JSON object; anything unreadable reads as the defaults. */
export function readSettings(json: string | null | undefined): UserSettings {
  try {
    const value: unknown = JSON.parse(json ?? "{}");
    const model = value && typeof value === "object" ? (value as { model?: unknown }).model : undefined;
    return { model: typeof model === "string" && model.length > 0 ? model : null };
  } catch {
    return { model: null };
  }
}
