/**
 * Teams: a workspace per account, its members and their roles, invitations, the audit log.
 * Limits and roles: `teamLimits`, `teamRoles`, `memberRoles`, `teamPermissions`, `auditActions`;
 * messages: `teamMessages`.
 *
 * Every call acts in the workspace named by `X-Workspace-Id` (`teamLimits.workspaceHeader`;
 * absent: the caller's own, whose id is their user id). A workspace the caller is not a member of
 * answers 404 `workspaceNotFound`. On `/api/public-assistants/{id}/…` the assistant's own
 * workspace is checked instead: a stranger gets 404 (as another owner's records always did), a
 * member whose role lacks the route's permission 403 `teamMessages.forbidden`.
 *
 *   GET    /api/team                               → teamResponse
 *   PATCH  /api/team  workspacePatchBody           → teamResponse (owner: the workspace's name)
 *   POST   /api/team/invitations  invitationBody   → 201 { invitation } (an e-mail with the code and a link)
 *   DELETE /api/team/invitations/{invitationId}    → 204
 *   POST   /api/team/invitations/accept  acceptBody → { workspace } (the signed-in account's e-mail must be the invited one)
 *   PATCH  /api/team/members/{userId}  memberPatchBody → { member }
 *   DELETE /api/team/members/{userId}              → 204 (a member may remove themselves: leaving)
 *   POST   /api/team/transfer  transferBody        → teamResponse (owner only; the old owner becomes an admin)
 *   GET    /api/team/audit?page=&actor=&action=    → auditResponse (newest first)
 */
import { z } from "zod";
import { auditActions, memberRoles, teamLimits as L, teamRoles } from "../constants";
import { teamMessages as M } from "../messages";

export const teamRoleSchema = z.enum(teamRoles);
export const memberRoleSchema = z.enum(memberRoles, { error: M.roleInvalid(memberRoles) });

/** A workspace as its member sees it, with the caller's role in it. */
export const workspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  ownerId: z.string(),
  role: teamRoleSchema,
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const teamMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: teamRoleSchema,
  /** When they joined (the owner: when the account was made). */
  addedAt: z.number(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: memberRoleSchema,
  invitedBy: z.object({ userId: z.string(), email: z.string(), name: z.string() }),
  createdAt: z.number(),
  expiresAt: z.number(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const teamResponse = z.object({
  workspace: workspaceSchema,
  /** The owner first, then by when they joined. */
  members: z.array(teamMemberSchema),
  /** Pending ones only (not accepted, revoked or expired), newest first. Empty for roles without `team.manage`. */
  invitations: z.array(invitationSchema),
  /** Every workspace the caller belongs to (their own first): the dashboard's switcher. */
  workspaces: z.array(workspaceSchema),
});
export type TeamResponse = z.infer<typeof teamResponse>;

const email = z
  .string({ error: M.emailRequired })
  .trim()
  .min(1, { error: M.emailRequired })
  .max(254, { error: M.emailInvalid })
  .pipe(z.email({ error: M.emailInvalid }))
  .transform((e) => e.toLowerCase());

export const invitationBody = z.object({ email, role: memberRoleSchema });
export type InvitationBody = z.input<typeof invitationBody>;

export const acceptBody = z.object({
  code: z
    .string({ error: M.codeRequired })
    .trim()
    .min(1, { error: M.codeRequired })
    .max(64, { error: M.codeInvalid })
    // Typed codes forgive case, spaces and dashes.
    .transform((c) => c.toUpperCase().replace(/[\s-]/g, "")),
});
export const acceptResponse = z.object({ workspace: workspaceSchema });

export const memberPatchBody = z.object({ role: memberRoleSchema });
export const memberResponse = z.object({ member: teamMemberSchema });
export const transferBody = z.object({ userId: z.string().min(1).max(100) });
export const workspacePatchBody = z.object({
  name: z
    .string({ error: M.workspaceNameRequired })
    .trim()
    .min(1, { error: M.workspaceNameRequired })
    .max(L.maxWorkspaceNameChars, { error: M.workspaceNameTooLong(L.maxWorkspaceNameChars) }),
});

export const auditActionSchema = z.enum(auditActions);

/** One thing someone did. Never holds a secret: keys and secrets are named by their masked hint at most. */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.number(),
  /** Who did it (their e-mail and name as they were then); null for Tala itself (e.g. retention). */
  actor: z.object({ userId: z.string(), email: z.string(), name: z.string() }).nullable(),
  action: auditActionSchema,
  /** The assistant it concerns, when one does. */
  assistant: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** What it was done to, in words (an e-mail, a key's name, a conversation's id). */
  target: z.string(),
  /** Small facts: a role from and to, the number of conversations deleted… */
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuery = z.object({
  page: z.coerce.number({ error: M.pageInvalid }).int({ error: M.pageInvalid }).min(1, { error: M.pageInvalid }).max(10_000, { error: M.pageInvalid }).default(1),
  /** A member's user id. */
  actor: z.string().trim().max(100).optional(),
  action: z.enum(auditActions, { error: M.actionInvalid(auditActions) }).optional(),
});
export const auditResponse = z.object({
  entries: z.array(auditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  totalPages: z.number().int(),
});
export type AuditResponse = z.infer<typeof auditResponse>;
