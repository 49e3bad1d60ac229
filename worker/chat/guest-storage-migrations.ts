import { pendingStorageMigrations, type StorageMigration } from "../durable-objects/storage-migrations";

/**
 * The schema of a guest room's own SQLite storage, as an append-only list. A room applies the
 * migrations it has not seen, in order; a stored history that is not a prefix of this list (an
 * entry renamed or removed) is refused rather than guessed at. Add entries; never edit one.
 */
export const guestStorageMigrations: readonly StorageMigration[] = [
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
];

/** Which migrations to run, given the ids already applied (in order); throws on a rewritten history. */
export const pendingMigrations = (applied: readonly string[], all = guestStorageMigrations) => pendingStorageMigrations(applied, all, "guest");
