import { and, eq } from "drizzle-orm";
import { teamMessages, type TeamResponse } from "../../../contract";
import { writeBatch } from "../../db/client";
import { workspaceMembers, workspaces } from "../../db/schema";
import { AppError } from "../../http/errors";
import type { RequestAccess, ServiceContext } from "../context";
import { auditActor, auditInsert } from "./audit";
import { getTeam } from "./get-team";
import { revokeMemberAccess } from "./revoke-member-access";
import { memberRow, workspaceFacts } from "./workspace-directory";

/**
 * POST /api/team/transfer { userId } (the owner): an admin of the workspace becomes its owner and
 * the old owner an admin, in one batch with the workspace's row (written with the name it showed,
 * so the workspace keeps it) and the audit entry. The workspace's id, and so its assistants, stay.
 */
export async function transferOwnership({ ctx, input }: { ctx: ServiceContext; input: { access: RequestAccess; userId: string } }): Promise<TeamResponse> {
  const { access } = input;
  const facts = await workspaceFacts(ctx, access.workspaceId);
  const target = input.userId === facts.ownerId ? null : await memberRow(ctx, facts.id, input.userId);
  if (!target || target.role !== "admin") throw new AppError("CONFLICT", teamMessages.transferTargetNotAdmin);
  const now = Date.now();
  await writeBatch(ctx.db, [
    ctx.db
      .insert(workspaces)
      .values({ id: facts.id, ownerId: input.userId, name: facts.name, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: workspaces.id, set: { ownerId: input.userId, name: facts.name, updatedAt: now } }),
    ctx.db.delete(workspaceMembers).where(and(eq(workspaceMembers.workspaceId, facts.id), eq(workspaceMembers.userId, input.userId))),
    ctx.db
      .insert(workspaceMembers)
      .values({ workspaceId: facts.id, userId: facts.ownerId, role: "admin", addedAt: now, addedBy: input.userId })
      .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { role: "admin" } }),
    auditInsert(ctx, {
      workspaceId: facts.id,
      actor: auditActor(access.user),
      action: "ownership.transferred",
      target: target.email,
      details: { from: access.user.email, to: target.email },
    }),
  ]);
  await Promise.all([
    revokeMemberAccess({ ctx, input: { workspaceId: facts.id, userId: input.userId, role: "owner" } }),
    revokeMemberAccess({ ctx, input: { workspaceId: facts.id, userId: facts.ownerId, role: "admin" } }),
  ]);
  return getTeam({ ctx, input: { access: { ...access, role: "admin" } } });
}
