/**
 * What the Team page lets the caller do, from their role (contract `can`) and the server's rules:
 * admins manage agents and viewers; only the owner manages admins and ownership; nobody changes
 * or removes the owner; anyone but the owner may leave. And an audit entry in words. Pure.
 */
import { can, memberRoles, teamMessages, teamUi, type AuditEntry, type MemberRole, type TeamMember, type TeamRole } from "../../../../contract";

export const roleName = (role: string) => teamMessages.roleNames[role] ?? role;

/** The roles the caller may give (an invitation, a role change). */
export function assignableRoles(caller: TeamRole | null): MemberRole[] {
  if (!can(caller, "team.manage")) return [];
  return memberRoles.filter((r) => r !== "admin" || can(caller, "team.admins"));
}

/** Whether the caller may change this member's role or remove them (not themselves: leaving is its own action). */
export function canManageMember(caller: TeamRole | null, callerId: string, member: TeamMember): boolean {
  if (member.role === "owner" || member.userId === callerId) return false;
  if (!can(caller, "team.manage")) return false;
  return member.role !== "admin" || can(caller, "team.admins");
}

/** The admins ownership may go to. */
export const transferTargets = (members: readonly TeamMember[]) => members.filter((m) => m.role === "admin");

/** How a person is named: their name, else their e-mail. */
export const personName = (p: { name: string; email: string }) => p.name.trim() || p.email;

const detail = (entry: AuditEntry, key: string): string => {
  const v = entry.details[key];
  return v === null || v === undefined ? "" : String(v);
};

/** "Nadia removed amina@example.com": the entry in words (who, what, to what). */
export function auditSentence(entry: AuditEntry): string {
  const S = teamUi.audit.sentences;
  const who = entry.actor ? personName(entry.actor) : teamUi.audit.system;
  const t = entry.target;
  const role = (key: string) => (detail(entry, key) ? roleName(detail(entry, key)) : "");
  switch (entry.action) {
    case "member.invited":
      return S["member.invited"](who, t, role("role"));
    case "invitation.accepted":
      return S["invitation.accepted"](who, entry.actor?.email === t ? "" : t, role("role"));
    case "member.role_changed":
      return S["member.role_changed"](who, t, role("from"), role("to"));
    case "member.left":
      return S["member.left"](who);
    case "assistant.retention_changed": {
      // The server's details: fromDays/toDays (null: keep), fromLeads/toLeads.
      const raw = entry.details.toDays;
      const days = typeof raw === "number" ? raw : raw === null || raw === "null" || raw === undefined ? null : Number(raw) || null;
      return S["assistant.retention_changed"](who, t, raw === undefined ? "" : teamUi.audit.retentionDays(days));
    }
    case "visitor.deleted": {
      const n = entry.details.deletedConversations;
      return S["visitor.deleted"](who, t, typeof n === "number" ? teamUi.audit.conversations(n) : "");
    }
    default:
      return (S[entry.action] as (who: string, target: string) => string)(who, t);
  }
}
