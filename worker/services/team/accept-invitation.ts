import { and, eq, isNull, sql } from "drizzle-orm";
import { teamLimits, teamMessages, type User, type Workspace } from "../../../contract";
import { sha256Hex } from "../../crypto/hash";
import { writeBatch } from "../../db/client";
import { auditLog, workspaceInvitations, workspaceMembers } from "../../db/schema";
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
  const takenNow = sql`EXISTS (SELECT 1 FROM ${workspaceInvitations} WHERE id = ${invitation.id} AND accepted_by = ${user.id} AND accepted_at = ${now})`;
  const audit = auditRow({ workspaceId: facts.id, actor: auditActor(user), action: "invitation.accepted", target: invitation.email, details: { role: invitation.role } });
  const [taken] = await writeBatch(ctx.db, [
    ctx.db
      .update(workspaceInvitations)
      .set({ acceptedAt: now, acceptedBy: user.id })
      .where(and(eq(workspaceInvitations.id, invitation.id), isNull(workspaceInvitations.acceptedAt), isNull(workspaceInvitations.revokedAt)))
      .returning({ id: workspaceInvitations.id }),
    ctx.db.run(sql`
      INSERT OR IGNORE INTO ${workspaceMembers} (workspace_id, user_id, role, added_at, added_by)
      SELECT ${facts.id}, ${user.id}, ${invitation.role}, ${now}, ${invitation.invitedBy} WHERE ${takenNow}`),
    ctx.db.run(sql`
      INSERT INTO ${auditLog} (id, workspace_id, at, actor_id, actor_email, actor_name, action, assistant_id, assistant_name, target, details)
      SELECT ${audit.id}, ${audit.workspaceId}, ${audit.at}, ${audit.actorId}, ${audit.actorEmail}, ${audit.actorName}, ${audit.action}, NULL, '', ${audit.target}, ${audit.details}
      WHERE ${takenNow}`),
  ]);
  if (taken.length === 0) {
    // Revoked or accepted between the read and the write: say which, as a first read would have.
    return acceptInvitation({ ctx, input });
  }
  const role = existing ?? invitation.role;
  await revokeMemberAccess({ ctx, input: { workspaceId: facts.id, userId: user.id, role } });
  return { workspace: toWorkspace(facts, role) };
}
