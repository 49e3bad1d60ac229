import { and, eq } from "drizzle-orm";
import type { Project } from "../../../contract";
import { projects } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { chatCountColumn } from "./chat-count";
import { toProject } from "./to-project";

/** One of the user's projects with its chat count; another user's project is 404. */
export async function getProject({ ctx, input }: { ctx: ServiceContext; input: { userId: string; projectId: string } }): Promise<Project> {
  const [row] = await ctx.db
    .select({ project: projects, chatCount: chatCountColumn })
    .from(projects)
    .where(and(eq(projects.id, input.projectId), eq(projects.userId, input.userId)))
    .limit(1);
  if (!row) throw notFound();
  return toProject(row.project, row.chatCount);
}
