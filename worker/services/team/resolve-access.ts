import { and, eq, sql } from "drizzle-orm";
import type { MemberRole, TeamRole } from "../../../contract";
import { publicAssistants, workspaceMembers, workspaces } from "../../db/schema";
import type { ServiceContext } from "../context";
import type { PublicAssistantRow } from "../public-assistants/to-public-assistant";

/**
 * The caller's role from what one query found: the owner is `workspaces.owner_id` when the
 * workspace has a row, else the user whose id is the workspace's; anyone else needs a member row.
 */
export function roleIn(workspaceId: string, userId: string, ownerId: string | null, memberRole: MemberRole | null): TeamRole | null {
  if ((ownerId ?? workspaceId) === userId) return "owner";
  return memberRole;
}

/**
 * An assistant, the workspace it belongs to (its `user_id`) and the caller's role there, in one
 * D1 query (the assistant LEFT JOIN its workspace's row LEFT JOIN the caller's membership). Null
 * when the assistant does not exist or the caller has no role in its workspace: both are a 404.
 */
export async function resolveAssistantAccess({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
}): Promise<{ assistant: PublicAssistantRow; workspaceId: string; role: TeamRole } | null> {
  const [hit] = await ctx.db
    .select({ assistant: publicAssistants, ownerId: workspaces.ownerId, memberRole: workspaceMembers.role })
    .from(publicAssistants)
    .leftJoin(workspaces, eq(workspaces.id, publicAssistants.userId))
    .leftJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, publicAssistants.userId), eq(workspaceMembers.userId, input.userId)))
    .where(eq(publicAssistants.id, input.assistantId))
    .limit(1);
  if (!hit) return null;
  const workspaceId = hit.assistant.userId;
  const role = roleIn(workspaceId, input.userId, hit.ownerId, hit.memberRole);
  return role ? { assistant: hit.assistant, workspaceId, role } : null;
}

/**
 * The caller's role in `workspaceId`, in one D1 query; null when they are not a member (a
 * stranger, a removed member, a workspace that does not exist). A user's own workspace (id = their
 * user id) is theirs unless its ownership was transferred.
 */
export async function resolveWorkspaceRole({ ctx, input }: { ctx: ServiceContext; input: { userId: string; workspaceId: string } }): Promise<TeamRole | null> {
  const [hit] = await ctx.db.all<{ ownerId: string | null; memberRole: MemberRole | null }>(sql`
    SELECT w.owner_id AS ownerId, m.role AS memberRole
    FROM (SELECT ${input.workspaceId} AS id) AS x
    LEFT JOIN ${workspaces} w ON w.id = x.id
    LEFT JOIN ${workspaceMembers} m ON m.workspace_id = x.id AND m.user_id = ${input.userId}`);
  return roleIn(input.workspaceId, input.userId, hit?.ownerId ?? null, hit?.memberRole ?? null);
}
