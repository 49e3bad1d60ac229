import type { Context } from "hono";
import { isDashboardPath } from "../contract";
import type { AppEnv } from "./http/context";

/** The dashboard's HTML shell, built to dist/public/app.html (served at /app). */
const DASHBOARD_SHELL = "/app";

/**
 * Requests that matched no static file. Dashboard paths get the dashboard shell (the client
 * router takes over); any other unknown path redirects to / (spec section 2).
 */
export async function serveStatic(c: Context<AppEnv>) {
  const url = new URL(c.req.url);
  if (isDashboardPath(url.pathname)) {
    const shell = await c.env.ASSETS.fetch(new URL(DASHBOARD_SHELL, url));
    return new Response(shell.body, {
      status: shell.ok ? 200 : shell.status,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
    });
  }
  return c.redirect("/", 302);
}
