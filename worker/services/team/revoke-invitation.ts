import { and, eq, isNull } from "drizzle-orm";
import { teamMessages } from "../../../contract";
import { writeBatch } from "../../db/client";
import { workspaceInvitations } from "../../db/schema";
import { AppError } from "../../http/errors";
import type { RequestAccess, ServiceContext } from "../context";
import { auditActor, auditInsert } from "./audit";
import { checkRoleManagement } from "./invite-member";

const invitationNotFound = () => new AppError("NOT_FOUND", teamMessages.invitationNotFound);

/**
 * DELETE /api/team/invitations/{id}: its code stops working at once. An invitation of another
 * workspace, or one already accepted or revoked, is a 404; an admin's invitation is the owner's to revoke.
 */
export async function revokeInvitation({ ctx, input }: { ctx: ServiceContext; input: { access: RequestAccess; invitationId: string } }): Promise<void> {
  const { access } = input;
  const [invitation] = await ctx.db
    .select({ email: workspaceInvitations.email, role: workspaceInvitations.role })
    .from(workspaceInvitations)
    .where(and(eq(workspaceInvitations.id, input.invitationId), eq(workspaceInvitations.workspaceId, access.workspaceId), isNull(workspaceInvitations.acceptedAt), isNull(workspaceInvitations.revokedAt)))
    .limit(1);
  if (!invitation) throw invitationNotFound();
  checkRoleManagement(access, invitation.role);
  const [revoked] = await writeBatch(ctx.db, [
    ctx.db
      .update(workspaceInvitations)
      .set({ revokedAt: Date.now() })
      .where(and(eq(workspaceInvitations.id, input.invitationId), isNull(workspaceInvitations.acceptedAt), isNull(workspaceInvitations.revokedAt)))
      .returning({ id: workspaceInvitations.id }),
    auditInsert(ctx, { workspaceId: access.workspaceId, actor: auditActor(access.user), action: "invitation.revoked", target: invitation.email, details: { role: invitation.role } }),
  ]);
  if (revoked.length === 0) throw invitationNotFound();
}
