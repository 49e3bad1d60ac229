import { sql } from "drizzle-orm";
import type { TeamResponse } from "../../../contract";
import { workspaces } from "../../db/schema";
import type { RequestAccess, ServiceContext } from "../context";
import { getTeam } from "./get-team";
import { workspaceFacts } from "./workspace-directory";

/** PATCH /api/team { name } (the owner): the workspace's name; its row is written the first time. */
export async function renameWorkspace({ ctx, input }: { ctx: ServiceContext; input: { access: RequestAccess; name: string } }): Promise<TeamResponse> {
  const facts = await workspaceFacts(ctx, input.access.workspaceId);
  const now = Date.now();
  await ctx.db
    .insert(workspaces)
    .values({ id: facts.id, ownerId: facts.ownerId, name: input.name, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: workspaces.id, set: { name: input.name, updatedAt: sql`${now}` } });
  return getTeam({ ctx, input });
}
