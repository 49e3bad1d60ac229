import { readSettings, SETTINGS_KEY, toMessage, type RoomStore } from "./room-store";

/**
 * The move of one signed-in user's legacy D1 rows (projects, chats, messages, and the chosen model
 * of users.settings) into their own room's SQLite, run once, on the room's first use, before any
 * other call is served (ChatRoom gates every data call and frame on it). Paged and idempotent: a
 * page of chats and their messages is copied (INSERT OR IGNORE, committed in the room), then
 * deleted from D1; an interrupted move resumes where it stopped and never duplicates a row. The
 * projects are deleted from D1 last (D1's foreign key would detach chats not yet copied). When
 * nothing is left the room writes its marker and never reads those D1 tables again.
 *
 * An account deletion that comes while the move runs erases the room and writes the marker
 * (ChatRoom.eraseAccountData): every write of the move first checks the marker, in the same
 * transaction, so the move stops there and never copies into an erased room.
 */

export const LEGACY_IMPORT_MARKER = "d1_import";
const PROJECTS_PER_PAGE = 200;
const CHATS_PER_PAGE = 50;
/** Small pages: a message's size is not bounded by count (a long reply), and a page is held in memory. */
const MESSAGES_PER_PAGE = 100;

type D1Row = Record<string, unknown>;
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** True when the room already holds everything of its user (the move ran to its end), or was erased. */
export const legacyImportDone = (store: RoomStore) => store.state(LEGACY_IMPORT_MARKER) === "done";

class MoveStopped extends Error {}

/** One write of the move, in one transaction, unless the room was marked done (erased) meanwhile. */
function write(store: RoomStore, run: (sql: SqlStorage) => void) {
  store.transaction(() => {
    if (legacyImportDone(store)) throw new MoveStopped();
    run(store.sql);
  });
}

/** Moves every legacy row of `userId` from D1 into `store`. Returns how many chats moved. */
export async function importLegacyUserData(db: D1Database, store: RoomStore, userId: string): Promise<number> {
  try {
    return await moveAll(db, store, userId);
  } catch (error) {
    if (error instanceof MoveStopped) return 0;
    throw error;
  }
}

async function moveAll(db: D1Database, store: RoomStore, userId: string): Promise<number> {
  if (legacyImportDone(store)) return 0;
  // One round trip decides for the common case, a user with nothing in D1 (every account made
  // since the move): the room is marked and D1 is never asked again.
  const [projects, chats, user] = await db.batch<{ n?: number; settings?: string | null }>([
    db.prepare("SELECT count(*) AS n FROM projects WHERE user_id = ?1").bind(userId),
    db.prepare("SELECT count(*) AS n FROM chats WHERE user_id = ?1").bind(userId),
    db.prepare("SELECT settings FROM users WHERE id = ?1").bind(userId),
  ]);
  const legacySettings = readSettings(user?.results[0]?.settings);
  if (!projects?.results[0]?.n && !chats?.results[0]?.n && legacySettings.model === null) {
    write(store, () => store.setState(LEGACY_IMPORT_MARKER, "done"));
    return 0;
  }
  await copyProjects(db, store, userId);
  let moved = 0;
  for (;;) {
    const { results: chats } = await db
      .prepare("SELECT * FROM chats WHERE user_id = ?1 ORDER BY id LIMIT ?2")
      .bind(userId, CHATS_PER_PAGE)
      .all<D1Row>();
    if (!chats.length) break;
    for (const chat of chats) await copyChat(db, store, chat);
    if (legacyImportDone(store)) throw new MoveStopped();
    // Copied (committed in the room) before deleted from D1: an interruption here re-copies, harmlessly.
    const ids = chats.map((c) => String(c.id));
    const placeholders = ids.map((_, i) => `?${i + 1}`).join(", ");
    await db.batch([
      db.prepare(`DELETE FROM messages WHERE chat_id IN (${placeholders})`).bind(...ids),
      db.prepare(`DELETE FROM chats WHERE id IN (${placeholders})`).bind(...ids),
    ]);
    moved += chats.length;
  }
  write(store, () => {
    if (legacySettings.model !== null && store.state(SETTINGS_KEY) === null) store.saveSettings(legacySettings);
  });
  await db.batch([
    db.prepare("DELETE FROM projects WHERE user_id = ?1").bind(userId),
    db.prepare("UPDATE users SET settings = '{}' WHERE id = ?1").bind(userId),
  ]);
  write(store, () => store.setState(LEGACY_IMPORT_MARKER, "done"));
  return moved;
}

async function copyProjects(db: D1Database, store: RoomStore, userId: string) {
  let after = "";
  for (;;) {
    const { results } = await db
      .prepare("SELECT * FROM projects WHERE user_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3")
      .bind(userId, after, PROJECTS_PER_PAGE)
      .all<D1Row>();
    write(store, (sql) => {
      for (const p of results) {
        sql.exec(
          "INSERT OR IGNORE INTO projects (id, name, instructions, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
          String(p.id),
          String(p.name),
          String(p.instructions ?? ""),
          Number(p.created_at),
          Number(p.updated_at),
        );
      }
    });
    if (results.length < PROJECTS_PER_PAGE) return;
    after = String(results[results.length - 1]!.id);
  }
}

/** One chat, then its messages a page at a time, in their D1 order (time, then id). */
async function copyChat(db: D1Database, store: RoomStore, c: D1Row) {
  write(store, (sql) =>
    sql.exec(
      "INSERT OR IGNORE INTO chats (id, title, project_id, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      String(c.id),
      String(c.title ?? ""),
      text(c.project_id),
      text(c.model),
      Number(c.created_at),
      Number(c.updated_at),
    ),
  );
  let after = { at: -1, id: "" };
  for (;;) {
    const { results } = await db
      .prepare("SELECT * FROM messages WHERE chat_id = ?1 AND (created_at > ?2 OR (created_at = ?2 AND id > ?3)) ORDER BY created_at, id LIMIT ?4")
      .bind(String(c.id), after.at, after.id, MESSAGES_PER_PAGE)
      .all<D1Row>();
    write(store, () => {
      for (const m of results) store.insertMessage(toMessage(m));
    });
    if (results.length < MESSAGES_PER_PAGE) return;
    const last = results[results.length - 1]!;
    after = { at: Number(last.created_at), id: String(last.id) };
  }
}
