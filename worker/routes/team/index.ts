import { Hono, type Context } from "hono";
import { acceptBody, auditQuery, invitationBody, memberPatchBody, transferBody, workspacePatchBody } from "../../../contract";
import { requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { teamGuard } from "../../http/team-guard";
import { jsonBody, queryParams } from "../../http/validate";
import type { RequestAccess } from "../../services/context";
import { acceptInvitation } from "../../services/team/accept-invitation";
import { changeMemberRole } from "../../services/team/change-member-role";
import { getTeam } from "../../services/team/get-team";
import { inviteMember } from "../../services/team/invite-member";
import { listAudit } from "../../services/team/list-audit";
import { removeMember } from "../../services/team/remove-member";
import { renameWorkspace } from "../../services/team/rename-workspace";
import { revokeInvitation } from "../../services/team/revoke-invitation";
import { transferOwnership } from "../../services/team/transfer-ownership";

/** What the guard resolved: every route here but accept runs behind it. */
const accessOf = (c: Context<AppEnv>): RequestAccess => {
  const access = c.var.access;
  if (!access) throw new Error("team route without the guard's access");
  return access;
};

/**
 * /api/team (contract/schemas/team.ts): the workspace named by `X-Workspace-Id` (the caller's own
 * by default), its members, invitations and audit log. Signed-in users; the team guard checks the
 * caller's role there (http/route-permissions.ts): not a member → 404 `workspaceNotFound`, a role
 * without the route's permission → 403.
 */
export function teamRoutes() {
  return (
    new Hono<AppEnv>()
      .use("*", requireUser, teamGuard)
      /** GET /api/team → teamResponse. */
      .get("/", async (c) => {
        c.header("cache-control", "private, no-store");
        return c.json(await getTeam({ ctx: serviceContext(c), input: { access: accessOf(c) } }));
      })
      /** PATCH /api/team { name } → teamResponse (the owner). */
      .patch("/", jsonBody(workspacePatchBody), async (c) =>
        c.json(await renameWorkspace({ ctx: serviceContext(c), input: { access: accessOf(c), name: c.req.valid("json").name } })),
      )
      /** POST /api/team/invitations { email, role } → 201 { invitation }; the code goes by e-mail only. */
      .post("/invitations", jsonBody(invitationBody), async (c) => {
        const { email, role } = c.req.valid("json");
        const invitation = await inviteMember({ ctx: serviceContext(c), input: { access: accessOf(c), email, role, origin: new URL(c.req.url).origin } });
        return c.json({ invitation }, 201);
      })
      /** POST /api/team/invitations/accept { code } → { workspace } (before /:invitationId, which takes DELETE only). */
      .post("/invitations/accept", jsonBody(acceptBody), async (c) =>
        c.json(await acceptInvitation({ ctx: serviceContext(c), input: { user: c.var.user, code: c.req.valid("json").code } })),
      )
      /** DELETE /api/team/invitations/:invitationId → 204. */
      .delete("/invitations/:invitationId", async (c) => {
        await revokeInvitation({ ctx: serviceContext(c), input: { access: accessOf(c), invitationId: c.req.param("invitationId") } });
        return c.body(null, 204);
      })
      /** PATCH /api/team/members/:userId { role } → { member }. */
      .patch("/members/:userId", jsonBody(memberPatchBody), async (c) => {
        const member = await changeMemberRole({ ctx: serviceContext(c), input: { access: accessOf(c), userId: c.req.param("userId"), role: c.req.valid("json").role } });
        return c.json({ member });
      })
      /** DELETE /api/team/members/:userId → 204 (their own id: leaving). */
      .delete("/members/:userId", async (c) => {
        await removeMember({ ctx: serviceContext(c), input: { access: accessOf(c), userId: c.req.param("userId") } });
        return c.body(null, 204);
      })
      /** POST /api/team/transfer { userId } → teamResponse (the caller is now an admin). */
      .post("/transfer", jsonBody(transferBody), async (c) =>
        c.json(await transferOwnership({ ctx: serviceContext(c), input: { access: accessOf(c), userId: c.req.valid("json").userId } })),
      )
      /** GET /api/team/audit?page=&actor=&action= → auditResponse, newest first. */
      .get("/audit", queryParams(auditQuery), async (c) => {
        c.header("cache-control", "private, no-store");
        return c.json(await listAudit({ ctx: serviceContext(c), input: { access: accessOf(c), ...c.req.valid("query") } }));
      })
  );
}
