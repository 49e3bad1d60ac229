import { and, eq } from "drizzle-orm";
import { writeBatch } from "../../db/client";
import { chats, projects } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { findProject } from "./find-project";

/**
 * Deletes one of the user's projects. Its chats stay, unassigned: they are detached in the same
 * batch (not left to the foreign key), so the outcome does not depend on PRAGMA foreign_keys.
 */
export async function deleteProject({ ctx, input }: { ctx: ServiceContext; input: { userId: string; projectId: string } }): Promise<void> {
  const project = await findProject({ ctx, input });
  if (!project) throw notFound();
  await writeBatch(ctx.db, [
    ctx.db
      .update(chats)
      .set({ projectId: null })
      .where(and(eq(chats.projectId, project.id), eq(chats.userId, input.userId))),
    ctx.db.delete(projects).where(and(eq(projects.id, project.id), eq(projects.userId, input.userId))),
  ]);
}
