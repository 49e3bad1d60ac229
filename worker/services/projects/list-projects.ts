import { desc, eq } from "drizzle-orm";
import type { Project } from "../../../contract";
import { projects } from "../../db/schema";
import type { ServiceContext } from "../context";
import { chatCountColumn } from "./chat-count";
import { toProject } from "./to-project";

/** The user's projects, most recently changed first, each with its number of chats. */
export async function listProjects({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<Project[]> {
  const rows = await ctx.db
    .select({ project: projects, chatCount: chatCountColumn })
    .from(projects)
    .where(eq(projects.userId, input.userId))
    .orderBy(desc(projects.updatedAt), desc(projects.id));
  return rows.map((r) => toProject(r.project, r.chatCount));
}
