/**
 * The authorization matrix: every owner route the app really registers (read from Hono's own
 * route list, so a new route cannot be left out) × every role × (own workspace, another
 * workspace, a removed member). Stranger and removed member: 404. A role without the route's
 * permission: 403 naming it. A role with it: what the owner gets, never 403 or the stranger's 404.
 * One shared setup; each route × case is one request.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { can, serverMessages, teamMessages, teamRoles, type TeamPermission, type TeamRole } from "../../contract";
import { createApp } from "../../worker/app";
import { anyMember, guardedPrefixes, routePermissions, signedInOnly, type RouteRule } from "../../worker/http/route-permissions";
import { errorOf, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { addMemberRow, teamCall, type Account } from "./team-helpers";

interface Route {
  method: string;
  path: string;
}

/** The app's handler routes under the guarded prefixes (middleware is registered as ALL). */
function guardedRoutes(): Route[] {
  const seen = new Set<string>();
  const out: Route[] = [];
  for (const r of createApp().routes) {
    if (r.method === "ALL" || !guardedPrefixes.some((p) => r.path === p || r.path.startsWith(`${p}/`))) continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path: r.path });
  }
  return out;
}

const routes = guardedRoutes();
const ASSISTANT_ROUTE = "/api/public-assistants/:id";
const onAssistant = (r: Route) => r.path === ASSISTANT_ROUTE || r.path.startsWith(`${ASSISTANT_ROUTE}/`);
/** Deleting the assistant itself: each allowed call gets an assistant of its own. */
const deletesAssistant = (r: Route) => r.method === "DELETE" && r.path === ASSISTANT_ROUTE;

const permissionOf = (rule: RouteRule): TeamPermission | null => (typeof rule === "object" ? rule.permission : rule === anyMember || rule === signedInOnly ? null : rule);
const allowed = (rule: RouteRule, role: TeamRole) => {
  const permission = permissionOf(rule);
  return permission === null || can(role, permission);
};

/** The request path: `:id` is the assistant, every other parameter an id that names nothing. */
const pathFor = (r: Route, assistantId: string) =>
  r.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => (name === "id" ? assistantId : `matrix-${name}`));

async function send(r: Route, caller: Account, assistantId: string, workspace: string) {
  const withBody = r.method === "POST" || r.method === "PUT" || r.method === "PATCH";
  const res = await teamCall(pathFor(r, assistantId), {
    method: r.method,
    token: caller.token,
    ...(withBody ? { json: {} } : {}),
    ...(onAssistant(r) ? {} : { workspace }),
  });
  const text = await res.text();
  return { status: res.status, error: res.status >= 400 ? ((JSON.parse(text) as { error?: string }).error ?? "") : "" };
}

const strangerErrors: readonly string[] = [serverMessages.notFound, teamMessages.workspaceNotFound];

describe("authorization matrix", () => {
  let owner: Account;
  let other: Account;
  let removed: Account;
  const members = {} as Record<Exclude<TeamRole, "owner">, Account>;
  let assistantId: string;
  let otherAssistantId: string;

  beforeAll(async () => {
    const accounts = await Promise.all([1, 2, 3, 4, 5, 6].map(() => registerUser()));
    [owner, other, removed, members.admin, members.agent, members.viewer] = accounts as [Account, Account, Account, Account, Account, Account];
    for (const role of ["admin", "agent", "viewer"] as const) await addMemberRow(owner.user.id, members[role].user.id, role);
    await addMemberRow(owner.user.id, removed.user.id, "agent");
    const res = await teamCall(`/api/team/members/${removed.user.id}`, { method: "DELETE", token: owner.token });
    expect(res.status).toBe(204);
    assistantId = (await createAssistant(owner.token, { name: "Matrix" }))._id;
    otherAssistantId = (await createAssistant(other.token, { name: "Elsewhere" }))._id;
  });

  it("finds the owner routes and gives each a rule in the one table", () => {
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.map((r) => `${r.method} ${r.path}`).filter((key) => routePermissions[key] === undefined);
    expect(missing).toEqual([]);
  });

  it("answers every route by the caller's role in the assistant's workspace", async () => {
    const callerOf = (role: TeamRole) => (role === "owner" ? owner : members[role]);
    const failures: string[] = [];
    for (const [index, r] of routes.entries()) {
      const key = `${r.method} ${r.path}`;
      const rule = routePermissions[key]!;
      if (rule === signedInOnly) continue;
      const permission = permissionOf(rule);
      let ownerStatus = 0;
      for (const role of teamRoles) {
        const target = deletesAssistant(r) && allowed(rule, role) ? (await createAssistant(owner.token))._id : assistantId;
        const got = await send(r, callerOf(role), target, owner.user.id);
        if (role === "owner") ownerStatus = got.status;
        if (!allowed(rule, role)) {
          const expected = teamMessages.forbidden(teamMessages.permissionNames[permission!]!, teamMessages.roleNames[role]!);
          if (got.status !== 403 || got.error !== expected) failures.push(`${key} as ${role}: ${got.status} ${got.error}, expected 403 ${expected}`);
        } else if (got.status === 403 || got.status !== ownerStatus || (got.status === 404 && strangerErrors.includes(got.error) && !r.path.includes(":", ASSISTANT_ROUTE.length))) {
          failures.push(`${key} as ${role}: ${got.status} ${got.error}, expected the owner's ${ownerStatus}`);
        }
      }
      // Another workspace and a removed member: one role each per route, turning through the roles.
      const role = teamRoles[index % teamRoles.length]!;
      const stranger = await send(r, callerOf(role), otherAssistantId, other.user.id);
      if (stranger.status !== 404 || !strangerErrors.includes(stranger.error)) failures.push(`${key} as ${role} of another workspace: ${stranger.status} ${stranger.error}`);
      const gone = await send(r, removed, assistantId, owner.user.id);
      if (gone.status !== 404 || !strangerErrors.includes(gone.error)) failures.push(`${key} as a removed member: ${gone.status} ${gone.error}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("lets any signed-in user reach the routes that act in no workspace yet", async () => {
    for (const r of routes.filter((x) => routePermissions[`${x.method} ${x.path}`] === signedInOnly)) {
      const res = await teamCall(r.path, { method: r.method, token: removed.token, json: {} });
      expect(res.status, `${r.method} ${r.path}`).toBe(400);
      expect((await errorOf(res)).error).not.toBe(teamMessages.workspaceNotFound);
    }
  });
});
