import type { Project } from "../../contract";
import type { RoomStore } from "./room-store";

type Row = Record<string, SqlStorageValue>;

export interface ProjectChanges {
  name?: string | undefined;
  instructions?: string | undefined;
}

const PROJECT_COLUMNS = "p.*, (SELECT count(*) FROM chats c WHERE c.project_id = p.id) AS chat_count";

const toProject = (r: Row): Project => ({
  id: String(r.id),
  name: String(r.name),
  instructions: String(r.instructions),
  chatCount: Number(r.chat_count ?? 0),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

/**
 * A signed-in user's projects, in their room's SQLite (beside the chats they group): a project's
 * instructions are the system prompt of its chats. Every function is one local, synchronous step.
 */
export const roomProjects = {
  /** Most recently changed first, each with its number of chats. */
  list(store: RoomStore): Project[] {
    return store.sql.exec(`SELECT ${PROJECT_COLUMNS} FROM projects p ORDER BY p.updated_at DESC, p.id DESC`).toArray().map(toProject);
  },

  get(store: RoomStore, projectId: string): Project | null {
    const [r] = store.sql.exec(`SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.id = ?`, projectId).toArray();
    return r ? toProject(r) : null;
  },

  create(store: RoomStore, input: { name: string; instructions: string }, now = Date.now()): Project {
    const project = { id: crypto.randomUUID(), name: input.name, instructions: input.instructions, chatCount: 0, createdAt: now, updatedAt: now };
    store.sql.exec(
      "INSERT INTO projects (id, name, instructions, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      project.id,
      project.name,
      project.instructions,
      now,
      now,
    );
    return project;
  },

  /** Renames a project or changes its instructions (used from the next message of its chats on); null when there is none. */
  update(store: RoomStore, projectId: string, changes: ProjectChanges, now = Date.now()): Project | null {
    const updated = store.sql.exec(
      "UPDATE projects SET name = coalesce(?, name), instructions = coalesce(?, instructions), updated_at = ? WHERE id = ?",
      changes.name ?? null,
      changes.instructions ?? null,
      now,
      projectId,
    ).rowsWritten;
    return updated ? roomProjects.get(store, projectId) : null;
  },

  /** Deletes a project; its chats stay, unassigned, in the same transaction. False when there is none. */
  delete(store: RoomStore, projectId: string): boolean {
    const sql = store.sql;
    return store.transaction(() => {
      if (sql.exec("DELETE FROM projects WHERE id = ?", projectId).rowsWritten === 0) return false;
      sql.exec("UPDATE chats SET project_id = NULL WHERE project_id = ?", projectId);
      return true;
    });
  },
};
