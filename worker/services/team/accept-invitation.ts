import { eq } from "drizzle-orm";
import { teamLimits, teamMessages, type User, type Workspace } from "../../../contract";
import { sha256Hex } from "../../crypto/hash";
import { workspaceInvitations } from "../../db/schema";
import { AppError, invalid } from "../../http/errors";
import type { ServiceContext } from "../context";
import { consumeRateLimit, peekRateLimit, retryAfterSeconds } from "../rate-limit";
import { auditActor, auditRow } from "./audit";
import { revokeMemberAccess } from "./revoke-member-access";
import { memberCount, memberRow, toWorkspace, workspaceFacts } from "./workspace-directory";

const HOUR_MS = 60 * 60 * 1000;
const attempts = { limit: teamLimits.acceptAttemptsPerHour, windowMs: HOUR_MS };

const codeError = (message: string) => invalid(message, { code: message });

/**
 * POST /api/team/invitations/accept { code }: the signed-in account joins the workspace with the
 * invitation's role. The account's e-mail must be the invited one (any case; 403 `wrongAccount`).
 * A code that matches no invitation counts against `acceptAttemptsPerHour` per user (then 429);
 * expired, revoked and used ones each answer their message. Accepting again, or as someone who
 * already is in the workspace, changes nothing and answers the workspace.
 */
export async function acceptInvitation({ ctx, input }: { ctx: ServiceContext; input: { user: User; code: string } }): Promise<{ workspace: Workspace }> {
  const { user } = input;
  const now = Date.now();
  const seen = await peekRateLimit(ctx.env, "team-accept", user.id, attempts, now);
  if (seen.remaining <= 0) throw new AppError("RATE_LIMITED", teamMessages.acceptThrottled, { retryAfter: retryAfterSeconds(seen, now) });
  const [invitation] = await ctx.db
    .select()
    .from(workspaceInvitations)
    .where(eq(workspaceInvitations.codeHash, await sha256Hex(input.code)))
    .limit(1);
  if (!invitation) {
    const counted = await consumeRateLimit(ctx.env, "team-accept", user.id, attempts, 1, now);
    if (!counted.allowed) throw new AppError("RATE_LIMITED", teamMessages.acceptThrottled, { retryAfter: retryAfterSeconds(counted, now) });
    throw codeError(teamMessages.codeInvalid);
  }
  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) throw new AppError("FORBIDDEN", teamMessages.wrongAccount(invitation.email));
  const facts = await workspaceFacts(ctx, invitation.workspaceId);
  const existing = facts.ownerId === user.id ? "owner" : (await memberRow(ctx, facts.id, user.id))?.role;
  if (invitation.acceptedAt !== null) {
    if (invitation.acceptedBy === user.id && existing) return { workspace: toWorkspace(facts, existing) };
    throw new AppError("CONFLICT", teamMessages.codeUsed);
  }
  if (invitation.revokedAt !== null) throw codeError(teamMessages.codeRevoked);
  if (invitation.expiresAt <= now) throw codeError(teamMessages.codeExpired);
  if (!existing && (await memberCount(ctx, facts.id)) + 1 >= teamLimits.maxMembers) throw new AppError("CONFLICT", teamMessages.tooManyMembers(teamLimits.maxMembers));

  // The invitation is taken in the same batch as the membership and its audit entry, which are
  // written only when this take is the one that landed: two accepts at once add one row.
  const audit = auditRow({ workspaceId: facts.id, actor: auditActor(user), action: "invitation.accepted", target: invitation.email, details: { role: invitation.role } });
  const takenNow = "EXISTS (SELECT 1 FROM workspace_invitations WHERE id = ?1 AND accepted_by = ?2 AND accepted_at = ?3)";
  const db = ctx.env.DB;
  const [taken] = await db.batch<{ id: string }>([
    db.prepare("UPDATE workspace_invitations SET accepted_at = ?3, accepted_by = ?2 WHERE id = ?1 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING id").bind(invitation.id, user.id, now),
    db
      .prepare(`INSERT OR IGNORE INTO workspace_members (workspace_id, user_id, role, added_at, added_by) SELECT ?4, ?2, ?5, ?3, ?6 WHERE ${takenNow}`)
      .bind(invitation.id, user.id, now, facts.id, invitation.role, invitation.invitedBy),
    db
      .prepare(
        `INSERT INTO audit_log (id, workspace_id, at, actor_id, actor_email, actor_name, action, assistant_id, assistant_name, target, details)
         SELECT ?4, ?5, ?3, ?2, ?6, ?7, ?8, NULL, '', ?9, ?10 WHERE ${takenNow}`,
      )
      .bind(invitation.id, user.id, now, audit.id, audit.workspaceId, audit.actorEmail, audit.actorName, audit.action, audit.target, audit.details),
  ]);
  if (!taken?.results.length) {
    // Revoked or accepted between the read and the write: say which, as a first read would have.
    return acceptInvitation({ ctx, input });
  }
  const role = existing ?? invitation.role;
  await revokeMemberAccess({ ctx, input: { workspaceId: facts.id, userId: user.id, role } });
  return { workspace: toWorkspace(facts, role) };
}
