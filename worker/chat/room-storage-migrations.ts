import type { StorageMigration } from "../durable-objects/storage-migrations";

/**
 * The schema of a chat room's own SQLite storage (a signed-in user's room or a guest's), as an
 * append-only list. A room applies the migrations it has not seen, in order; a stored history that
 * is not a prefix of this list (an entry renamed or removed) is refused rather than guessed at.
 * Add entries; never edit one. (0001 is the guest rooms' first schema: their stored history
 * keeps its id.)
 */
export const roomStorageMigrations: readonly StorageMigration[] = [
  {
    id: "0001_chats_messages",
    sql: `
      CREATE TABLE chats (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL DEFAULT '',
        model TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        files TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL DEFAULT 'complete',
        error TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX messages_chat_created_idx ON messages (chat_id, created_at);
    `,
  },
  {
    // A signed-in user's projects and settings move here from D1 (chat/legacy-import.ts). No
    // foreign key on project_id: deleting a project detaches its chats in the same transaction.
    id: "0002_projects_settings",
    sql: `
      ALTER TABLE chats ADD COLUMN project_id TEXT;
      CREATE INDEX chats_updated_idx ON chats (updated_at, id);
      CREATE INDEX chats_project_idx ON chats (project_id);
      CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        instructions TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE room_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
  {
    // Regenerate (issue 12): a reply written again keeps its row (id, place, current text) and
    // its earlier texts go to message_versions, oldest first by id. `version_at`: when the current
    // version started (null: never regenerated, one version, its time is created_at), so existing
    // rows need no move. chat_id lets a chat's deletion take its versions along.
    id: "0003_reply_versions",
    sql: `
      ALTER TABLE messages ADD COLUMN version_at INTEGER;
      CREATE TABLE message_versions (
        id INTEGER PRIMARY KEY,
        message_id TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        content TEXT NOT NULL,
        status TEXT NOT NULL,
        error TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX message_versions_message_idx ON message_versions (message_id, id);
      CREATE INDEX message_versions_chat_idx ON message_versions (chat_id);
    `,
  },
];
