import type { Project } from "../../../contract";
import type { projects } from "../../db/schema";

export type ProjectRow = typeof projects.$inferSelect;

/** The project as the API shows it (contract `projectSchema`). */
export function toProject(row: ProjectRow, chatCount: number): Project {
  return {
    id: row.id,
    name: row.name,
    instructions: row.instructions,
    chatCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
