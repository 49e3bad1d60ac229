import type { Context } from "hono";
import { isDashboardPath, publicRoutes, staticPages } from "../contract";
import type { AppEnv } from "./http/context";

/** The dashboard's HTML shell, built to dist/public/app.html (served at /app). */
const DASHBOARD_SHELL = "/app";

/** /blog/{anything}: a post id the build did not produce (known ids are static files and never reach here). */
const BLOG_POST_PATH = new RegExp(`^${publicRoutes.blog}/[^/]+/?$`);

/**
 * Requests that matched no static file. Dashboard paths get the dashboard shell (the client
 * router takes over); an unknown blog post gets the built 404 page, which leads back to /blog;
 * any other unknown path redirects to / (spec section 2).
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
  if (BLOG_POST_PATH.test(url.pathname)) {
    const page = await c.env.ASSETS.fetch(new URL(staticPages.notFound, url));
    // Without a built site (worker-only tests) there is no page to show: fall back to the redirect.
    if (page.ok) {
      return new Response(page.body, {
        status: 404,
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
      });
    }
  }
  return c.redirect("/", 302);
}
