import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { can, teamLimits, teamMessages, type Invitation, type MemberRole } from "../../../contract";
import { sha256Hex } from "../../crypto/hash";
import { generateAlphabetCode } from "../../crypto/random";
import { writeBatch } from "../../db/client";
import { auditLog, users, workspaceInvitations, workspaceMembers } from "../../db/schema";
import { AppError } from "../../http/errors";
import { forbidden } from "../../http/team-guard";
import type { RequestAccess, ServiceContext } from "../context";
import { emailSenderFor } from "../email/sender";
import { consumeRateLimit, refundRateLimit, retryAfterSeconds } from "../rate-limit";
import { auditActor, auditRow } from "./audit";
import { memberCount, workspaceFacts } from "./workspace-directory";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Only the owner gives or takes away the admin role (`team.admins`); admins manage agents and viewers. */
export function checkRoleManagement(access: RequestAccess, role: MemberRole) {
  if (role === "admin" && !can(access.role, "team.admins")) throw forbidden("team.admins", access.role);
}

/**
 * POST /api/team/invitations { email, role } → the invitation (201): a code of
 * `teamLimits.codeChars` characters (only its SHA-256 kept), valid `invitationTtlMs`, e-mailed
 * with a link to `<origin>/app/invite?code=`. Refused: the caller's own address, a member's, a
 * pending invitation's, a full workspace, past `invitationsPerHour` for the workspace. The row and
 * its audit entry are one batch; an e-mail that cannot be sent takes both back (503).
 */
export async function inviteMember({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { access: RequestAccess; email: string; role: MemberRole; origin: string };
}): Promise<Invitation> {
  const { access, email, role } = input;
  checkRoleManagement(access, role);
  if (email === access.user.email.toLowerCase()) throw new AppError("CONFLICT", teamMessages.cannotInviteSelf);
  const now = Date.now();
  const facts = await workspaceFacts(ctx, access.workspaceId);
  const [owner, member, pending, members] = await Promise.all([
    ctx.db.select({ id: users.id }).from(users).where(and(eq(users.id, facts.ownerId), sql`lower(${users.email}) = ${email}`)).limit(1),
    ctx.db
      .select({ id: users.id })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(and(eq(workspaceMembers.workspaceId, facts.id), sql`lower(${users.email}) = ${email}`))
      .limit(1),
    ctx.db
      .select({ email: workspaceInvitations.email })
      .from(workspaceInvitations)
      .where(and(eq(workspaceInvitations.workspaceId, facts.id), isNull(workspaceInvitations.acceptedAt), isNull(workspaceInvitations.revokedAt), gt(workspaceInvitations.expiresAt, now)))
      .limit(teamLimits.maxPendingInvitations + 1),
    memberCount(ctx, facts.id),
  ]);
  if (owner.length || member.length) throw new AppError("CONFLICT", teamMessages.alreadyMember(email));
  if (pending.some((p) => p.email === email)) throw new AppError("CONFLICT", teamMessages.alreadyInvited(email));
  if (members + 1 + pending.length >= teamLimits.maxMembers) throw new AppError("CONFLICT", teamMessages.tooManyMembers(teamLimits.maxMembers));
  if (pending.length >= teamLimits.maxPendingInvitations) throw new AppError("CONFLICT", teamMessages.tooManyInvitations(teamLimits.maxPendingInvitations));

  const window = { limit: teamLimits.invitationsPerHour, windowMs: HOUR_MS };
  const admitted = await consumeRateLimit(ctx.env, "team-invite", facts.id, window, 1, now);
  if (!admitted.allowed) throw new AppError("RATE_LIMITED", teamMessages.invitationsThrottled, { retryAfter: retryAfterSeconds(admitted, now) });

  const code = generateAlphabetCode(teamLimits.codeChars, teamLimits.codeAlphabet);
  const invitation = {
    id: crypto.randomUUID(),
    workspaceId: facts.id,
    email,
    role,
    codeHash: await sha256Hex(code),
    invitedBy: access.user.id,
    createdAt: now,
    expiresAt: now + teamLimits.invitationTtlMs,
  };
  const audit = auditRow({ workspaceId: facts.id, actor: auditActor(access.user), action: "member.invited", target: email, details: { role } });
  await writeBatch(ctx.db, [ctx.db.insert(workspaceInvitations).values(invitation), ctx.db.insert(auditLog).values(audit)]);

  const inviter = `${access.user.firstName} ${access.user.lastName}`.trim() || access.user.email;
  const link = `${input.origin}/app/invite?code=${code}`;
  try {
    await emailSenderFor(ctx).send({
      to: email,
      subject: teamMessages.invitationEmailSubject(facts.name),
      text: teamMessages.invitationEmailBody(inviter, facts.name, teamMessages.roleNames[role] ?? role, code, link, Math.round(teamLimits.invitationTtlMs / DAY_MS)),
      code,
    });
  } catch (error) {
    // Nobody can accept an invitation whose code was never sent: it must not stay pending.
    await writeBatch(ctx.db, [
      ctx.db.delete(workspaceInvitations).where(eq(workspaceInvitations.id, invitation.id)),
      ctx.db.delete(auditLog).where(inArray(auditLog.id, [audit.id])),
    ]);
    await refundRateLimit(ctx.env, "team-invite", facts.id, window, 1, now).catch(() => {});
    throw error;
  }
  const name = `${access.user.firstName} ${access.user.lastName}`.trim();
  return {
    id: invitation.id,
    email,
    role,
    invitedBy: { userId: access.user.id, email: access.user.email, name },
    createdAt: invitation.createdAt,
    expiresAt: invitation.expiresAt,
  };
}
