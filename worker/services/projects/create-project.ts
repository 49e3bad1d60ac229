import type { z } from "zod";
import type { createProjectBody, Project } from "../../../contract";
import { projects } from "../../db/schema";
import type { ServiceContext } from "../context";
import { toProject } from "./to-project";

/** Creates a project for the user; its instructions become the system prompt of its chats. */
export async function createProject({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string } & z.output<typeof createProjectBody>;
}): Promise<Project> {
  const now = Date.now();
  const row = { id: crypto.randomUUID(), userId: input.userId, name: input.name, instructions: input.instructions, createdAt: now, updatedAt: now };
  await ctx.db.insert(projects).values(row);
  return toProject(row, 0);
}
