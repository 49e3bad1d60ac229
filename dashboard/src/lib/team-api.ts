/**
 * The team calls (contract/schemas/team.ts), one function per call, each answer parsed with the
 * contract's schema. Every call acts in the workspace the HTTP client names (X-Workspace-Id);
 * `team(workspaceId)` may name another one for that call only. Writes that must not happen twice
 * (an invitation is an e-mail) go once.
 */
import {
  acceptResponse,
  auditResponse,
  invitationSchema,
  memberResponse,
  teamResponse,
  type AuditAction,
  type AuditResponse,
  type Invitation,
  type MemberRole,
  type TeamMember,
  type TeamResponse,
  type Workspace,
} from "../../../contract";
import { z } from "zod";
import { apiClient, type ApiClient } from "./api";

const invitationCreated = z.object({ invitation: invitationSchema });

export interface AuditFilter {
  page: number;
  actor?: string;
  action?: AuditAction | "";
}

/** GET /api/team/audit?page=&actor=&action=: the page's address (empty filters left out). */
export function auditPath({ page, actor, action }: AuditFilter): string {
  const query = new URLSearchParams({ page: String(page) });
  if (actor) query.set("actor", actor);
  if (action) query.set("action", action);
  return `/team/audit?${query}`;
}

export function createTeamApi(client: ApiClient) {
  return {
    /** GET /api/team: the workspace, its members, pending invitations, and every workspace of the caller. */
    team: (signal?: AbortSignal): Promise<TeamResponse> => client.get("/team", { schema: teamResponse, signal, reportUnauthorized: false }),
    rename: (name: string): Promise<TeamResponse> => client.patch("/team", { name }, { schema: teamResponse }),
    invite: async (email: string, role: MemberRole): Promise<Invitation> =>
      (await client.post("/team/invitations", { email, role }, { schema: invitationCreated, retry: false })).invitation,
    revokeInvitation: (invitationId: string): Promise<void> => client.delete(`/team/invitations/${encodeURIComponent(invitationId)}`),
    accept: async (code: string): Promise<Workspace> => (await client.post("/team/invitations/accept", { code }, { schema: acceptResponse, retry: false })).workspace,
    changeRole: async (userId: string, role: MemberRole): Promise<TeamMember> =>
      (await client.patch(`/team/members/${encodeURIComponent(userId)}`, { role }, { schema: memberResponse })).member,
    /** Removes a member; the caller's own id: leaving the workspace. */
    removeMember: (userId: string): Promise<void> => client.delete(`/team/members/${encodeURIComponent(userId)}`),
    transfer: (userId: string): Promise<TeamResponse> => client.post("/team/transfer", { userId }, { schema: teamResponse, retry: false }),
    audit: (filter: AuditFilter, signal?: AbortSignal): Promise<AuditResponse> => client.get(auditPath(filter), { schema: auditResponse, signal }),
  };
}

export type TeamApi = ReturnType<typeof createTeamApi>;
export const teamApi: TeamApi = createTeamApi(apiClient);
