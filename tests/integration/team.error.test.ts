import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditActions, memberRoles, teamLimits, teamMessages } from "../../contract";
import { call, expectError, registerUser } from "./helpers";
import { invite, joinAs, teamCall } from "./team-helpers";

const accept = (token: string, code: unknown) => call("/api/team/invitations/accept", { token, json: { code } });
const forbidden = (permission: string, role: string) => teamMessages.forbidden(teamMessages.permissionNames[permission]!, teamMessages.roleNames[role]!);

describe("invitations refused", () => {
  it("checks the e-mail and the role, and refuses the caller, a member and a pending invitation again", async () => {
    const owner = await registerUser();
    const post = (json: unknown) => teamCall("/api/team/invitations", { token: owner.token, json });
    await expectError(await post({ role: "agent" }), 400, teamMessages.emailRequired);
    await expectError(await post({ email: "not-an-address", role: "agent" }), 400, teamMessages.emailInvalid);
    await expectError(await post({ email: "a@example.com", role: "owner" }), 400, teamMessages.roleInvalid(memberRoles));
    await expectError(await post({ email: owner.email.toUpperCase(), role: "agent" }), 409, teamMessages.cannotInviteSelf);
    const member = await joinAs(owner, "viewer");
    await expectError(await post({ email: member.email, role: "agent" }), 409, teamMessages.alreadyMember(member.email));
    const email = `pending-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await invite(owner, email, "agent");
    await expectError(await post({ email, role: "viewer" }), 409, teamMessages.alreadyInvited(email));
  });

  it("lets only the owner invite an admin or revoke an admin's invitation", async () => {
    const owner = await registerUser();
    const admin = await joinAs(owner, "admin");
    const asAdmin = (json: unknown) => teamCall("/api/team/invitations", { token: admin.token, workspace: owner.user.id, json });
    await expectError(await asAdmin({ email: "boss@example.com", role: "admin" }), 403, forbidden("team.admins", "admin"));
    const { invitation } = await invite(owner, `second-admin-${crypto.randomUUID().slice(0, 6)}@example.com`, "admin");
    const revoke = await teamCall(`/api/team/invitations/${invitation.id}`, { method: "DELETE", token: admin.token, workspace: owner.user.id });
    await expectError(revoke, 403, forbidden("team.admins", "admin"));
    await expectError(await teamCall("/api/team/invitations/nope", { method: "DELETE", token: owner.token }), 404, teamMessages.invitationNotFound);
  });

  it("stops after invitationsPerHour e-mails from one workspace", async () => {
    const owner = await registerUser();
    for (let i = 0; i < teamLimits.invitationsPerHour; i++) await invite(owner, `bulk-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`, "viewer");
    const res = await teamCall("/api/team/invitations", { token: owner.token, json: { email: "one-more@example.com", role: "viewer" } });
    await expectError(res, 429, teamMessages.invitationsThrottled);
  });
});

describe("accepting refused", () => {
  it("needs the invited account: another signed-in account gets 403 naming the address, and joins nothing", async () => {
    const owner = await registerUser();
    const invited = `invited-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { code } = await invite(owner, invited, "agent");
    const someoneElse = await registerUser();
    await expectError(await accept(someoneElse.token, code), 403, teamMessages.wrongAccount(invited));
    expect((await teamCall("/api/team", { token: someoneElse.token, workspace: owner.user.id })).status).toBe(404);
  });

  it("answers an expired, a revoked and a used invitation with their own messages", async () => {
    const owner = await registerUser();
    const late = await registerUser();
    const expired = await invite(owner, late.email, "agent");
    await env.DB.prepare("UPDATE workspace_invitations SET expires_at = ? WHERE id = ?").bind(Date.now() - 1, expired.invitation.id).run();
    await expectError(await accept(late.token, expired.code), 400, teamMessages.codeExpired);

    const revokedFor = await registerUser();
    const revoked = await invite(owner, revokedFor.email, "viewer");
    expect((await teamCall(`/api/team/invitations/${revoked.invitation.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    await expectError(await accept(revokedFor.token, revoked.code), 400, teamMessages.codeRevoked);

    const first = await registerUser();
    const used = await invite(owner, first.email, "viewer");
    expect((await accept(first.token, used.code)).status).toBe(200);
    // The same address on another account (changed e-mail since): the code is spent.
    await env.DB.prepare("UPDATE users SET email = ? WHERE id = ?").bind(`moved-${first.email}`, first.user.id).run();
    const second = await registerUser({ email: first.email });
    await expectError(await accept(second.token, used.code), 409, teamMessages.codeUsed);
  });

  it("throttles wrong codes per user: acceptAttemptsPerHour, then 429 even for a right one", async () => {
    const owner = await registerUser();
    const guesser = await registerUser();
    const { code } = await invite(owner, guesser.email, "agent");
    await expectError(await accept(guesser.token, ""), 400, teamMessages.codeRequired);
    for (let i = 0; i < teamLimits.acceptAttemptsPerHour; i++) await expectError(await accept(guesser.token, `WRONG${i}`), 400, teamMessages.codeInvalid);
    await expectError(await accept(guesser.token, code), 429, teamMessages.acceptThrottled);
  });
});

describe("members refused", () => {
  it("keeps the owner's role and place, and finds no unknown member", async () => {
    const owner = await registerUser();
    const admin = await joinAs(owner, "admin");
    const patch = (token: string, userId: string, role: unknown) => teamCall(`/api/team/members/${userId}`, { method: "PATCH", token, workspace: owner.user.id, json: { role } });
    await expectError(await patch(owner.token, owner.user.id, "admin"), 409, teamMessages.ownerRoleFixed);
    await expectError(await patch(owner.token, admin.user.id, "owner"), 400, teamMessages.roleInvalid(memberRoles));
    await expectError(await patch(owner.token, "nobody", "agent"), 404, teamMessages.memberNotFound);
    const remove = (token: string, userId: string) => teamCall(`/api/team/members/${userId}`, { method: "DELETE", token, workspace: owner.user.id });
    await expectError(await remove(admin.token, owner.user.id), 409, teamMessages.cannotRemoveOwner);
    await expectError(await remove(owner.token, owner.user.id), 409, teamMessages.cannotRemoveOwner);
    await expectError(await remove(owner.token, "nobody"), 404, teamMessages.memberNotFound);
  });

  it("lets an admin manage agents and viewers only: not another admin, not into an admin", async () => {
    const owner = await registerUser();
    const [admin, other, agent] = [await joinAs(owner, "admin"), await joinAs(owner, "admin"), await joinAs(owner, "agent")];
    const patch = (userId: string, role: string) => teamCall(`/api/team/members/${userId}`, { method: "PATCH", token: admin.token, workspace: owner.user.id, json: { role } });
    await expectError(await patch(other.user.id, "viewer"), 403, forbidden("team.admins", "admin"));
    await expectError(await patch(agent.user.id, "admin"), 403, forbidden("team.admins", "admin"));
    expect((await patch(agent.user.id, "viewer")).status).toBe(200);
    const removeOther = await teamCall(`/api/team/members/${other.user.id}`, { method: "DELETE", token: admin.token, workspace: owner.user.id });
    await expectError(removeOther, 403, forbidden("team.admins", "admin"));
    // An agent may only leave.
    const agentRemoves = await teamCall(`/api/team/members/${admin.user.id}`, { method: "DELETE", token: agent.token, workspace: owner.user.id });
    await expectError(agentRemoves, 403, forbidden("team.manage", "viewer"));
  });

  it("transfers only to an admin, and only the owner does", async () => {
    const owner = await registerUser();
    const agent = await joinAs(owner, "agent");
    const admin = await joinAs(owner, "admin");
    const transfer = (token: string, userId: unknown) => teamCall("/api/team/transfer", { token, workspace: owner.user.id, json: { userId } });
    await expectError(await transfer(owner.token, agent.user.id), 409, teamMessages.transferTargetNotAdmin);
    await expectError(await transfer(owner.token, owner.user.id), 409, teamMessages.transferTargetNotAdmin);
    await expectError(await transfer(admin.token, admin.user.id), 403, forbidden("team.admins", "admin"));
  });
});

describe("the workspace header and the audit query", () => {
  it("refuses a malformed X-Workspace-Id (400) and a workspace the caller is not in (404)", async () => {
    const stranger = await registerUser();
    const owner = await registerUser();
    await expectError(await teamCall("/api/team", { token: stranger.token, workspace: "../../etc" }), 400, teamMessages.workspaceHeaderInvalid);
    await expectError(await teamCall("/api/team", { token: stranger.token, workspace: owner.user.id }), 404, teamMessages.workspaceNotFound);
    await expectError(await teamCall("/api/public-assistants", { token: stranger.token, workspace: owner.user.id }), 404, teamMessages.workspaceNotFound);
    await expectError(await teamCall("/api/budgets", { token: stranger.token, workspace: owner.user.id }), 404, teamMessages.workspaceNotFound);
  });

  it("checks page and action, and keeps the log from roles without audit.read", async () => {
    const owner = await registerUser();
    await expectError(await teamCall("/api/team/audit?page=0", { token: owner.token }), 400, teamMessages.pageInvalid);
    await expectError(await teamCall("/api/team/audit?action=everything", { token: owner.token }), 400, teamMessages.actionInvalid(auditActions));
    const agent = await joinAs(owner, "agent");
    await expectError(await teamCall("/api/team/audit", { token: agent.token, workspace: owner.user.id }), 403, forbidden("audit.read", "agent"));
  });
});
