import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Project, updateProjectBody } from "../../../contract";
import { projects } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { getProject } from "./get-project";

/** Renames a project or changes its instructions (used from the next message of its chats on). */
export async function updateProject({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; projectId: string; changes: z.output<typeof updateProjectBody> };
}): Promise<Project> {
  const set: Partial<typeof projects.$inferInsert> = { updatedAt: Date.now() };
  if (input.changes.name !== undefined) set.name = input.changes.name;
  if (input.changes.instructions !== undefined) set.instructions = input.changes.instructions;
  const updated = await ctx.db
    .update(projects)
    .set(set)
    .where(and(eq(projects.id, input.projectId), eq(projects.userId, input.userId)))
    .returning({ id: projects.id });
  if (updated.length === 0) throw notFound();
  return getProject({ ctx, input });
}
