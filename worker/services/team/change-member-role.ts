import { and, eq } from "drizzle-orm";
import { teamMessages, type MemberRole, type TeamMember } from "../../../contract";
import { writeBatch } from "../../db/client";
import { workspaceMembers } from "../../db/schema";
import { AppError } from "../../http/errors";
import type { RequestAccess, ServiceContext } from "../context";
import { auditActor, auditInsert } from "./audit";
import { checkRoleManagement } from "./invite-member";
import { revokeMemberAccess } from "./revoke-member-access";
import { memberRow, workspaceFacts } from "./workspace-directory";

export const memberNotFound = () => new AppError("NOT_FOUND", teamMessages.memberNotFound);

/**
 * PATCH /api/team/members/{userId} { role }: the owner's role is fixed (409: transfer ownership
 * instead); an admin changes agents and viewers only, and cannot make an admin (403). The new role
 * holds from the member's next request; with the inbox gone, their open socket stops getting it.
 */
export async function changeMemberRole({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { access: RequestAccess; userId: string; role: MemberRole };
}): Promise<TeamMember> {
  const { access } = input;
  const facts = await workspaceFacts(ctx, access.workspaceId);
  if (input.userId === facts.ownerId) throw new AppError("CONFLICT", teamMessages.ownerRoleFixed);
  const member = await memberRow(ctx, facts.id, input.userId);
  if (!member) throw memberNotFound();
  checkRoleManagement(access, member.role);
  checkRoleManagement(access, input.role);
  const [changed] = await writeBatch(ctx.db, [
    ctx.db
      .update(workspaceMembers)
      .set({ role: input.role })
      .where(and(eq(workspaceMembers.workspaceId, facts.id), eq(workspaceMembers.userId, input.userId)))
      .returning({ addedAt: workspaceMembers.addedAt }),
    auditInsert(ctx, {
      workspaceId: facts.id,
      actor: auditActor(access.user),
      action: "member.role_changed",
      target: member.email,
      details: { from: member.role, to: input.role },
    }),
  ]);
  if (!changed[0]) throw memberNotFound();
  if (member.role !== input.role) await revokeMemberAccess({ ctx, input: { workspaceId: facts.id, userId: input.userId, role: input.role } });
  return { userId: input.userId, email: member.email, name: member.name, role: input.role, addedAt: changed[0].addedAt };
}
