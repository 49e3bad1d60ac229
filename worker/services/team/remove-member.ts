import { and, eq } from "drizzle-orm";
import { teamMessages } from "../../../contract";
import { writeBatch } from "../../db/client";
import { workspaceMembers } from "../../db/schema";
import { AppError } from "../../http/errors";
import type { RequestAccess, ServiceContext } from "../context";
import { auditActor, auditInsert } from "./audit";
import { memberNotFound } from "./change-member-role";
import { checkRoleManagement } from "./invite-member";
import { revokeMemberAccess } from "./revoke-member-access";
import { memberRow, workspaceFacts } from "./workspace-directory";

/**
 * DELETE /api/team/members/{userId}: a member leaves (their own id: `member.left`) or is removed
 * (`member.removed`; an admin removes agents and viewers, the owner anyone). The owner cannot be
 * removed (409). From their next request they are a stranger to the workspace (404), and within a
 * second their open socket gets nothing more from it (revoke-member-access.ts).
 */
export async function removeMember({ ctx, input }: { ctx: ServiceContext; input: { access: RequestAccess; userId: string } }): Promise<void> {
  const { access } = input;
  const facts = await workspaceFacts(ctx, access.workspaceId);
  if (input.userId === facts.ownerId) throw new AppError("CONFLICT", teamMessages.cannotRemoveOwner);
  const member = await memberRow(ctx, facts.id, input.userId);
  if (!member) throw memberNotFound();
  const leaving = input.userId === access.user.id;
  if (!leaving) checkRoleManagement(access, member.role);
  const [removed] = await writeBatch(ctx.db, [
    ctx.db
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, facts.id), eq(workspaceMembers.userId, input.userId)))
      .returning({ userId: workspaceMembers.userId }),
    auditInsert(ctx, {
      workspaceId: facts.id,
      actor: auditActor(access.user),
      action: leaving ? "member.left" : "member.removed",
      target: member.email,
      details: { role: member.role },
    }),
  ]);
  if (removed.length === 0) throw memberNotFound();
  await revokeMemberAccess({ ctx, input: { workspaceId: facts.id, userId: input.userId, role: null } });
}
