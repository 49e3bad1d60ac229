import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import { can, teamLimits, teamMessages, type TeamPermission, type TeamRole } from "../../contract";
import { resolveAssistantAccess, resolveWorkspaceRole } from "../services/team/resolve-access";
import type { AppEnv } from "./context";
import { AppError, invalid, notFound } from "./errors";
import { anyMember, routePermissions, signedInOnly, type RouteRule } from "./route-permissions";
import { serviceContext } from "./service-context";

const ASSISTANT_ROUTE = "/api/public-assistants/:id";
const WORKSPACE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The handler route this request will run: the first matched route registered for its method
 * (middleware is registered for every method, as `ALL`; HEAD runs the GET handler). Null when no
 * handler matches (the app's 404/405 answers it).
 */
export function handlerRoute(c: Context<AppEnv>): { method: string; path: string } | null {
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  const route = matchedRoutes(c).find((r) => r.method === method);
  return route ? { method, path: route.path } : null;
}

/** The values of `routePath`'s `:name` segments in the request's path. */
export function pathParams(routePath: string, path: string): Record<string, string> {
  const names = routePath.split("/");
  const values = path.split("/");
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    if (!name.startsWith(":") || values[i] === undefined) return;
    try {
      params[name.slice(1)] = decodeURIComponent(values[i]);
    } catch {
      params[name.slice(1)] = values[i];
    }
  });
  return params;
}

export const forbidden = (permission: TeamPermission, role: TeamRole) =>
  new AppError("FORBIDDEN", teamMessages.forbidden(teamMessages.permissionNames[permission] ?? permission, teamMessages.roleNames[role] ?? role));

/** Passes, or throws the 403 naming the permission `rule` needs and `role` lacks. */
function checkRule(rule: Exclude<RouteRule, typeof signedInOnly>, role: TeamRole, params: Record<string, string>, userId: string) {
  if (rule === anyMember) return;
  if (typeof rule === "object") {
    if (params[rule.selfParam] === userId) return;
    if (!can(role, rule.permission)) throw forbidden(rule.permission, role);
    return;
  }
  if (!can(role, rule)) throw forbidden(rule, role);
}

/**
 * The team guard, after `requireUser` on every owner route (route-permissions.ts lists them):
 * reads the matched route's rule from the one table (a route missing there is a 500: fail
 * closed), resolves the caller's role in one D1 query (the assistant's workspace for
 * `/api/public-assistants/{id}/…`, with the assistant's row; else the `X-Workspace-Id` workspace,
 * the caller's own by default) and answers 404 to a stranger or a removed member (the same body
 * as another owner's assistant always had, or `workspaceNotFound`), 403 naming the permission to
 * a member whose role lacks it. Sets `c.var.access` for the services (serviceContext).
 * Membership is read on every request, never cached: a removal holds from the next request.
 */
export const teamGuard = createMiddleware<AppEnv>(async (c, next) => {
  const route = handlerRoute(c);
  if (!route) return next();
  const key = `${route.method} ${route.path}`;
  const rule = routePermissions[key];
  if (rule === undefined) {
    console.error(JSON.stringify({ event: "route-without-permission", route: key }));
    throw new Error(`No permission declared for ${key}`);
  }
  if (rule === signedInOnly) return next();
  const user = c.var.user;
  const params = pathParams(route.path, c.req.path);
  const ctx = serviceContext(c);
  const checkedAt = Date.now();
  if (route.path === ASSISTANT_ROUTE || route.path.startsWith(`${ASSISTANT_ROUTE}/`)) {
    const found = await resolveAssistantAccess({ ctx, input: { userId: user.id, assistantId: params.id ?? "" } });
    if (!found) throw notFound();
    checkRule(rule, found.role, params, user.id);
    c.set("access", { user, workspaceId: found.workspaceId, role: found.role, checkedAt, assistant: found.assistant });
    return next();
  }
  const named = c.req.header(teamLimits.workspaceHeader);
  if (named !== undefined && !WORKSPACE_ID.test(named)) throw invalid(teamMessages.workspaceHeaderInvalid);
  const workspaceId = named || user.id;
  const role = await resolveWorkspaceRole({ ctx, input: { userId: user.id, workspaceId } });
  if (!role) throw new AppError("NOT_FOUND", teamMessages.workspaceNotFound);
  checkRule(rule, role, params, user.id);
  c.set("access", { user, workspaceId, role });
  return next();
});

/** The workspace a guarded call without an assistant acts in (its id is the id its assistants' `user_id` holds). */
export const workspaceOf = (c: Context<AppEnv>): string => c.var.access?.workspaceId ?? c.var.user.id;
