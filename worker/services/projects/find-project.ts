import { and, eq } from "drizzle-orm";
import { projects } from "../../db/schema";
import type { ServiceContext } from "../context";
import type { ProjectRow } from "./to-project";

/** The user's project, or null when it does not exist or belongs to someone else. */
export async function findProject({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; projectId: string };
}): Promise<ProjectRow | null> {
  const [row] = await ctx.db
    .select()
    .from(projects)
    .where(and(eq(projects.id, input.projectId), eq(projects.userId, input.userId)))
    .limit(1);
  return row ?? null;
}
