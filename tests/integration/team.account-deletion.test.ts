import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditResponse, publicAssistantListResponse, serverMessages, teamMessages, teamResponse } from "../../contract";
import { call, defaultPassword, expectError, json, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { joinAs, teamCall } from "./team-helpers";

const deleteAccount = (token: string) => call("/api/auth/me", { method: "DELETE", token, json: { password: defaultPassword } });

describe("deleting an account that works in teams", () => {
  it("a member who deletes their account leaves every workspace, and the log says so", async () => {
    const owner = await registerUser();
    const agent = await joinAs(owner, "agent");
    expect((await deleteAccount(agent.token)).status).toBe(200);
    const team = await json(await teamCall("/api/team", { token: owner.token }), teamResponse);
    expect(team.members.map((m) => m.userId)).toEqual([owner.user.id]);
    const log = await json(await teamCall("/api/team/audit?action=member.left", { token: owner.token }), auditResponse);
    expect(log.entries).toEqual([expect.objectContaining({ target: agent.email, details: { accountDeleted: true } })]);
  });

  it("an owner whose workspace has other people is asked to transfer it first, and nothing is deleted", async () => {
    const owner = await registerUser({ firstName: "Nadia" });
    const assistant = await createAssistant(owner.token, { name: "Still here" });
    await joinAs(owner, "viewer");
    await expectError(await deleteAccount(owner.token), 409, teamMessages.transferBeforeDeleting([teamMessages.defaultWorkspaceName("Nadia")]));
    expect((await call(`/api/public-assistants/${assistant._id}`, { token: owner.token })).status).toBe(200);
  });

  it("after a transfer, the old owner's deletion keeps the workspace and its assistants; their row stays only as a scrubbed tombstone", async () => {
    const owner = await registerUser();
    const assistant = await createAssistant(owner.token, { name: "Handed over" });
    const admin = await joinAs(owner, "admin");
    expect((await teamCall("/api/team/transfer", { token: owner.token, json: { userId: admin.user.id } })).status).toBe(200);
    expect((await deleteAccount(owner.token)).status).toBe(200);

    await expectError(await call("/api/auth/me", { token: owner.token }), 401, serverMessages.sessionExpired);
    const listed = await teamCall("/api/public-assistants", { token: admin.token, workspace: owner.user.id });
    expect((await json(listed, publicAssistantListResponse)).assistants.map((a) => a._id)).toEqual([assistant._id]);
    const row = await env.DB.prepare("SELECT email, password_hash, first_name, last_name, firebase_uid FROM users WHERE id = ?").bind(owner.user.id).first();
    expect(row).toEqual({ email: `deleted-${owner.user.id}@deleted.invalid`, password_hash: null, first_name: "", last_name: "", firebase_uid: null });
    const tokens = await env.DB.prepare("SELECT count(*) AS n FROM auth_tokens WHERE user_id = ?").bind(owner.user.id).first<{ n: number }>();
    expect(tokens!.n).toBe(0);
    // The address is free again: the person can make a new account with it.
    expect((await registerUser({ email: owner.email })).user.id).not.toBe(owner.user.id);
  });

  it("an owner alone in their workspace deletes it with its assistants, as before teams", async () => {
    const owner = await registerUser();
    await createAssistant(owner.token, { name: "Gone with the account" });
    const renamed = await teamCall("/api/team", { method: "PATCH", token: owner.token, json: { name: "Solo" } });
    expect(renamed.status).toBe(200);
    expect((await deleteAccount(owner.token)).status).toBe(200);
    const left = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM public_assistants WHERE user_id = ?1) AS assistants, (SELECT count(*) FROM workspaces WHERE id = ?1) AS workspaces, (SELECT count(*) FROM users WHERE id = ?1) AS users, (SELECT count(*) FROM audit_log WHERE workspace_id = ?1) AS audit",
    )
      .bind(owner.user.id)
      .first();
    expect(left).toEqual({ assistants: 0, workspaces: 0, users: 0, audit: 0 });
  });
});
