import { env } from "cloudflare:test";
import { expect } from "vitest";
import { acceptResponse, invitationSchema, teamLimits, type MemberRole, type TeamRole } from "../../contract";
import { z } from "zod";
import { call, json, latestCode, registerUser, type CallInit } from "./helpers";

export type Account = Awaited<ReturnType<typeof registerUser>>;

/** A call acting in `workspace` (the `X-Workspace-Id` header). */
export function teamCall(path: string, init: CallInit & { workspace?: string } = {}) {
  const { workspace, headers, ...rest } = init;
  const h = new Headers(headers);
  if (workspace !== undefined) h.set(teamLimits.workspaceHeader, workspace);
  return call(path, { ...rest, headers: h });
}

/** Makes `userId` a member of `workspaceId` straight in D1 (the matrix's setup; the invitation flow has its own tests). */
export async function addMemberRow(workspaceId: string, userId: string, role: MemberRole) {
  await env.DB.prepare("INSERT INTO workspace_members (workspace_id, user_id, role, added_at, added_by) VALUES (?, ?, ?, ?, ?)")
    .bind(workspaceId, userId, role, Date.now(), workspaceId)
    .run();
}

/** Invites `invitee` into `owner`'s workspace (or `workspace`) and returns the invitation and its e-mailed code. */
export async function invite(by: Account, email: string, role: MemberRole, workspace?: string) {
  const res = await teamCall("/api/team/invitations", { token: by.token, json: { email, role }, workspace });
  expect(res.status, await res.clone().text()).toBe(201);
  const { invitation } = await json(res, z.object({ invitation: invitationSchema }));
  return { invitation, code: await latestCode(email) };
}

/** Invites a fresh account into `owner`'s workspace with `role` and accepts it through the API. */
export async function joinAs(owner: Account, role: MemberRole, workspace = owner.user.id): Promise<Account> {
  const member = await registerUser();
  const { code } = await invite(owner, member.email, role, workspace);
  const res = await call("/api/team/invitations/accept", { token: member.token, json: { code } });
  expect(res.status, await res.clone().text()).toBe(200);
  expect((await json(res, acceptResponse)).workspace.role).toBe(role satisfies TeamRole);
  return member;
}
