import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiKeyResponse, auditResponse, leadMessages, memberResponse, publicAssistantListResponse, teamLimits, teamMessages, teamResponse } from "../../contract";
import { call, json, outbox, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { setLeadForm, submittedLead } from "./lead-helpers";
import { invite, joinAs, teamCall, type Account } from "./team-helpers";
import { startSession } from "./widget-helpers";

const team = async (who: Account, workspace?: string) => {
  const res = await teamCall("/api/team", { token: who.token, workspace });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, teamResponse);
};
const audit = async (who: Account, query = "", workspace?: string) => {
  const res = await teamCall(`/api/team/audit${query}`, { token: who.token, workspace });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, auditResponse);
};

describe("a workspace and its members", () => {
  it("every account is the owner of its own workspace, named after them, with nothing to run", async () => {
    const owner = await registerUser({ firstName: "Samira" });
    const body = await team(owner);
    expect(body.workspace).toEqual({ id: owner.user.id, name: teamMessages.defaultWorkspaceName("Samira"), ownerId: owner.user.id, role: "owner" });
    expect(body.members).toEqual([expect.objectContaining({ userId: owner.user.id, email: owner.email, role: "owner" })]);
    expect(body.invitations).toEqual([]);
    expect(body.workspaces).toEqual([body.workspace]);
  });

  it("invites by e-mail with a code and a link, lists the invitation, and the invitee joins with the role", async () => {
    const owner = await registerUser({ firstName: "Samira" });
    const invitee = await registerUser();
    const { invitation, code } = await invite(owner, invitee.email.toUpperCase(), "agent");
    expect(invitation).toMatchObject({ email: invitee.email, role: "agent", invitedBy: { userId: owner.user.id } });
    expect(invitation.expiresAt - invitation.createdAt).toBe(teamLimits.invitationTtlMs);
    expect(code).toMatch(new RegExp(`^[${teamLimits.codeAlphabet}]{${teamLimits.codeChars}}$`));
    const [mail] = await outbox(invitee.email);
    expect(mail!.subject).toBe(teamMessages.invitationEmailSubject(teamMessages.defaultWorkspaceName("Samira")));
    expect(mail!.text).toContain(`http://tala.test/app/invite?code=${code}`);
    expect(mail!.text).toContain(code);
    // Only the code's SHA-256 is kept.
    const row = await env.DB.prepare("SELECT * FROM workspace_invitations WHERE id = ?").bind(invitation.id).first();
    expect(JSON.stringify(row)).not.toContain(code);
    expect((await team(owner)).invitations.map((i) => i.id)).toEqual([invitation.id]);

    // Typed codes forgive case and dashes; accepting twice is harmless.
    const typed = `${code.slice(0, 6).toLowerCase()}-${code.slice(6)}`;
    for (let i = 0; i < 2; i++) {
      const res = await call("/api/team/invitations/accept", { token: invitee.token, json: { code: typed } });
      expect(res.status).toBe(200);
      expect((await json(res, z.object({ workspace: z.object({ id: z.string(), role: z.string() }) }))).workspace).toMatchObject({ id: owner.user.id, role: "agent" });
    }
    const after = await team(owner);
    expect(after.invitations).toEqual([]);
    expect(after.members.map((m) => [m.userId, m.role])).toEqual([
      [owner.user.id, "owner"],
      [invitee.user.id, "agent"],
    ]);
    // The invitee's switcher: their own first, then the one they joined.
    expect((await team(invitee)).workspaces.map((w) => [w.id, w.role])).toEqual([
      [invitee.user.id, "owner"],
      [owner.user.id, "agent"],
    ]);
    expect((await team(invitee, owner.user.id)).workspace.role).toBe("agent");
  });

  it("a member works on the workspace's assistants: lists them with X-Workspace-Id and opens one by its id", async () => {
    const owner = await registerUser();
    const assistant = await createAssistant(owner.token, { name: "Shop" });
    const viewer = await joinAs(owner, "viewer");
    const listed = await teamCall("/api/public-assistants", { token: viewer.token, workspace: owner.user.id });
    expect((await json(listed, publicAssistantListResponse)).assistants.map((a) => a._id)).toEqual([assistant._id]);
    expect((await call(`/api/public-assistants/${assistant._id}`, { token: viewer.token })).status).toBe(200);
    // Without the header: their own workspace, which has none.
    expect((await json(await call("/api/public-assistants", { token: viewer.token }), publicAssistantListResponse)).assistants).toEqual([]);
  });

  it("an admin creates an assistant in the workspace: it belongs to the workspace, not to the admin", async () => {
    const owner = await registerUser();
    const admin = await joinAs(owner, "admin");
    const res = await teamCall("/api/public-assistants", { token: admin.token, workspace: owner.user.id, json: { name: "Made by the admin" } });
    expect(res.status).toBe(201);
    const listed = await json(await call("/api/public-assistants", { token: owner.token }), publicAssistantListResponse);
    expect(listed.assistants.map((a) => a.name)).toEqual(["Made by the admin"]);
  });

  it("changes a member's role, lets a member leave, renames the workspace, and records each", async () => {
    const owner = await registerUser();
    const agent = await joinAs(owner, "agent");
    const changed = await teamCall(`/api/team/members/${agent.user.id}`, { method: "PATCH", token: owner.token, json: { role: "viewer" } });
    expect((await json(changed, memberResponse)).member).toMatchObject({ userId: agent.user.id, role: "viewer" });

    const renamed = await teamCall("/api/team", { method: "PATCH", token: owner.token, json: { name: "  Atlas Support  " } });
    expect((await json(renamed, teamResponse)).workspace.name).toBe("Atlas Support");

    expect((await teamCall(`/api/team/members/${agent.user.id}`, { method: "DELETE", token: agent.token, workspace: owner.user.id })).status).toBe(204);
    expect((await teamCall("/api/team", { token: agent.token, workspace: owner.user.id })).status).toBe(404);

    const log = await audit(owner);
    expect(log.entries.map((e) => e.action)).toEqual(["member.left", "member.role_changed", "invitation.accepted", "member.invited"]);
    expect(log.entries[1]).toMatchObject({ actor: { userId: owner.user.id, email: owner.email }, target: agent.email, details: { from: "agent", to: "viewer" } });
    expect(log.entries[0]).toMatchObject({ actor: { userId: agent.user.id }, target: agent.email });
  });

  it("transfers ownership to an admin: the old owner becomes an admin, the assistants and the name stay", async () => {
    const owner = await registerUser({ firstName: "Omar" });
    const assistant = await createAssistant(owner.token, { name: "Kept" });
    const admin = await joinAs(owner, "admin");
    const res = await teamCall("/api/team/transfer", { token: owner.token, json: { userId: admin.user.id } });
    expect(res.status).toBe(200);
    const body = await json(res, teamResponse);
    expect(body.workspace).toMatchObject({ id: owner.user.id, ownerId: admin.user.id, role: "admin", name: teamMessages.defaultWorkspaceName("Omar") });
    expect(body.members.map((m) => [m.userId, m.role])).toEqual([
      [admin.user.id, "owner"],
      [owner.user.id, "admin"],
    ]);
    // The new owner manages admins now; the old one no longer does.
    expect((await teamCall("/api/team/transfer", { token: owner.token, json: { userId: admin.user.id } })).status).toBe(403);
    const listed = await teamCall("/api/public-assistants", { token: admin.token, workspace: owner.user.id });
    expect((await json(listed, publicAssistantListResponse)).assistants.map((a) => a._id)).toEqual([assistant._id]);
    expect((await audit(admin, "?action=ownership.transferred", owner.user.id)).entries).toEqual([
      expect.objectContaining({ action: "ownership.transferred", target: admin.email, actor: expect.objectContaining({ userId: owner.user.id }) }),
    ]);
  });

  it("after a transfer, the owner's e-mails (a new lead here) go to the new owner, not the first one", async () => {
    const owner = await registerUser({ firstName: "Omar" });
    const assistant = await createAssistant(owner.token, { name: "Handed over" });
    const { apiKey } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token: owner.token }), apiKeyResponse);
    await setLeadForm(owner.token, assistant._id, { enabled: true });
    const admin = await joinAs(owner, "admin");
    expect((await teamCall("/api/team/transfer", { token: owner.token, json: { userId: admin.user.id } })).status).toBe(200);
    const { sessionId } = await startSession(apiKey);
    await submittedLead(apiKey, sessionId, { name: "Sara", email: "sara@example.ma" });
    const subject = leadMessages.ownerEmailSubject("Handed over");
    const toNewOwner = async () => (await outbox(admin.email)).filter((m) => m.subject === subject);
    for (let i = 0; i < 60 && (await toNewOwner()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await toNewOwner()).toHaveLength(1);
    expect((await outbox(owner.email)).filter((m) => m.subject === subject)).toHaveLength(0);
  });

  it("pages the audit log newest first and filters it by person and by action", async () => {
    const owner = await registerUser();
    const admin = await joinAs(owner, "admin");
    for (let i = 0; i < 3; i++) await invite(admin, `guest-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`, "viewer", owner.user.id);
    const all = await audit(owner);
    expect(all.total).toBe(5);
    expect(all.entries.map((e) => e.at)).toEqual([...all.entries.map((e) => e.at)].sort((a, b) => b - a));
    const byAdmin = await audit(owner, `?actor=${admin.user.id}`);
    expect(byAdmin.entries.every((e) => e.actor?.userId === admin.user.id)).toBe(true);
    expect(byAdmin.total).toBe(4);
    const invited = await audit(owner, "?action=member.invited&page=1");
    expect(invited).toMatchObject({ total: 4, page: 1, totalPages: 1 });
    expect((await audit(owner, "?page=2")).entries).toEqual([]);
  });
});
