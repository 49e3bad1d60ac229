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
    // The owner's all-assistants monthly budget (worker/budgets/owner-budget.ts): each
    // assistant's count of the month as its own object last reported it (the total is their sum),
    // and the budget e-mails (the same table as an assistant's object). The budget itself is a
    // room_state value.
    id: "0003_owner_budgets",
    sql: `
      CREATE TABLE owner_budget_usage (
        month TEXT NOT NULL,
        assistant_id TEXT NOT NULL,
        used INTEGER NOT NULL,
        PRIMARY KEY (month, assistant_id)
      ) WITHOUT ROWID;
      CREATE TABLE budget_notices (
        scope TEXT NOT NULL,
        month TEXT NOT NULL,
        percent INTEGER NOT NULL,
        budget INTEGER NOT NULL,
        used INTEGER NOT NULL,
        action TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        user_id TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at INTEGER NOT NULL,
        lease_until INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (scope, month, percent)
      ) WITHOUT ROWID;
      CREATE INDEX budget_notices_pending_idx ON budget_notices (status, next_at);
    `,
  },
  {
    // Regenerate: a reply written again keeps its row (id, place, current text) and
    // its earlier texts go to message_versions, oldest first by id. `version_at`: when the current
    // version started (null: never regenerated, one version, its time is created_at), so existing
    // rows need no move. chat_id lets a chat's deletion take its versions along.
    id: "0004_reply_versions",
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
  {
    // A signed-in user's messages, one row each when admitted (chat/user-limits.ts): the last
    // minute's for the rate, and the day's while the e-mail is not verified. Older rows are
    // dropped as new ones come, so the table stays as small as those limits.
    id: "0005_message_admissions",
    sql: `
      CREATE TABLE message_admissions (id INTEGER PRIMARY KEY, at INTEGER NOT NULL);
      CREATE INDEX message_admissions_at_idx ON message_admissions (at);
    `,
  },
];
