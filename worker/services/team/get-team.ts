import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { can, teamLimits, type Invitation, type TeamResponse } from "../../../contract";
import { users, workspaceInvitations } from "../../db/schema";
import type { RequestAccess, ServiceContext } from "../context";
import { listMembers, toWorkspace, workspaceFacts, workspacesOf } from "./workspace-directory";

/** The workspace's pending invitations (not accepted, revoked or expired), newest first. */
export async function pendingInvitations(ctx: ServiceContext, workspaceId: string, now = Date.now()): Promise<Invitation[]> {
  const rows = await ctx.db
    .select({
      id: workspaceInvitations.id,
      email: workspaceInvitations.email,
      role: workspaceInvitations.role,
      createdAt: workspaceInvitations.createdAt,
      expiresAt: workspaceInvitations.expiresAt,
      inviterId: workspaceInvitations.invitedBy,
      inviterEmail: users.email,
      inviterFirst: users.firstName,
      inviterLast: users.lastName,
    })
    .from(workspaceInvitations)
    .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(
      and(
        eq(workspaceInvitations.workspaceId, workspaceId),
        isNull(workspaceInvitations.acceptedAt),
        isNull(workspaceInvitations.revokedAt),
        gt(workspaceInvitations.expiresAt, now),
      ),
    )
    .orderBy(desc(workspaceInvitations.createdAt), desc(workspaceInvitations.id))
    .limit(teamLimits.maxPendingInvitations);
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    invitedBy: { userId: r.inviterId, email: r.inviterEmail ?? "", name: `${r.inviterFirst ?? ""} ${r.inviterLast ?? ""}`.trim() },
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
  }));
}

/** GET /api/team: the workspace the call acts in, its members, its pending invitations (for roles with `team.manage`), and the caller's workspaces. */
export async function getTeam({ ctx, input }: { ctx: ServiceContext; input: { access: RequestAccess } }): Promise<TeamResponse> {
  const { access } = input;
  const facts = await workspaceFacts(ctx, access.workspaceId);
  const [members, invitations, workspaces] = await Promise.all([
    listMembers(ctx, facts),
    can(access.role, "team.manage") ? pendingInvitations(ctx, access.workspaceId) : Promise.resolve([]),
    workspacesOf(ctx, access.user.id),
  ]);
  return { workspace: toWorkspace(facts, access.role), members, invitations, workspaces };
}
