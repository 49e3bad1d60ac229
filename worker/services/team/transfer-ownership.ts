import { teamMessages, type TeamResponse } from "../../../contract";
import { AppError } from "../../http/errors";
import { forbidden } from "../../http/team-guard";
import type { RequestAccess, ServiceContext } from "../context";
import { auditActor, auditRow } from "./audit";
import { getTeam } from "./get-team";
import { revokeMemberAccess } from "./revoke-member-access";
import { memberRow, workspaceFacts } from "./workspace-directory";

/**
 * POST /api/team/transfer { userId } (the owner): an admin of the workspace becomes its owner and
 * the old owner an admin, in one batch with the workspace's row (written with the name it showed,
 * so the workspace keeps it) and the audit entry, taken only while the caller still owns it and the
 * target is still an admin (two transfers at once make one owner; the second is a 403). The
 * workspace's id, and so its assistants, stay.
 */
export async function transferOwnership({ ctx, input }: { ctx: ServiceContext; input: { access: RequestAccess; userId: string } }): Promise<TeamResponse> {
  const { access } = input;
  const facts = await workspaceFacts(ctx, access.workspaceId);
  const target = input.userId === facts.ownerId ? null : await memberRow(ctx, facts.id, input.userId);
  if (!target || target.role !== "admin") throw new AppError("CONFLICT", teamMessages.transferTargetNotAdmin);
  const now = Date.now();
  // Taken only while the caller still owns the workspace and the target is still one of its
  // admins (two transfers at once: the second changes nothing); the rest of the batch follows
  // only when this take landed.
  const audit = auditRow({
    workspaceId: facts.id,
    actor: auditActor(access.user),
    action: "ownership.transferred",
    target: target.email,
    details: { from: access.user.email, to: target.email },
  });
  const takenNow = "EXISTS (SELECT 1 FROM workspaces WHERE id = ?1 AND owner_id = ?2 AND updated_at = ?4)";
  const db = ctx.env.DB;
  const [taken] = await db.batch<{ id: string }>([
    db
      .prepare(
        `INSERT INTO workspaces (id, owner_id, name, created_at, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?4
         WHERE coalesce((SELECT owner_id FROM workspaces WHERE id = ?1), ?1) = ?5
           AND EXISTS (SELECT 1 FROM workspace_members WHERE workspace_id = ?1 AND user_id = ?2 AND role = 'admin')
         ON CONFLICT (id) DO UPDATE SET owner_id = excluded.owner_id, name = excluded.name, updated_at = excluded.updated_at
         RETURNING id`,
      )
      .bind(facts.id, input.userId, facts.name, now, facts.ownerId),
    db.prepare(`DELETE FROM workspace_members WHERE workspace_id = ?1 AND user_id = ?2 AND ${takenNow}`).bind(facts.id, input.userId, null, now),
    db
      .prepare(
        `INSERT INTO workspace_members (workspace_id, user_id, role, added_at, added_by) SELECT ?1, ?3, 'admin', ?4, ?2 WHERE ${takenNow}
         ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = 'admin'`,
      )
      .bind(facts.id, input.userId, facts.ownerId, now),
    db
      .prepare(
        `INSERT INTO audit_log (id, workspace_id, at, actor_id, actor_email, actor_name, action, assistant_id, assistant_name, target, details)
         SELECT ?5, ?1, ?4, ?6, ?7, ?8, ?9, NULL, '', ?10, ?11 WHERE ${takenNow}`,
      )
      .bind(facts.id, input.userId, null, now, audit.id, audit.actorId, audit.actorEmail, audit.actorName, audit.action, audit.target, audit.details),
  ]);
  if (!taken?.results.length) {
    // Another change landed first: the caller no longer owns it, or the target is no admin now.
    const fresh = await workspaceFacts(ctx, access.workspaceId);
    if (fresh.ownerId !== access.user.id) throw forbidden("team.admins", "admin");
    throw new AppError("CONFLICT", teamMessages.transferTargetNotAdmin);
  }
  await Promise.all([
    revokeMemberAccess({ ctx, input: { workspaceId: facts.id, userId: input.userId, role: "owner" } }),
    revokeMemberAccess({ ctx, input: { workspaceId: facts.id, userId: facts.ownerId, role: "admin" } }),
  ]);
  return getTeam({ ctx, input: { access: { ...access, role: "admin" } } });
}
