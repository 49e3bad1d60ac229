import type { Context } from "hono";
import { isDashboardPath, publicRoutes, staticPages } from "../contract";
import type { AppEnv } from "./http/context";
import { inlineScriptHashes, pageHeaders } from "./http/security-headers";
import { firebaseWebConfig } from "./routes/config";

/** The dashboard's HTML shell, built to dist/public/app.html (served at /app). */
const DASHBOARD_SHELL = "/app";

/** /blog/{anything}: a post id the build did not produce (known ids are static files and never reach here). */
const BLOG_POST_PATH = new RegExp(`^${publicRoutes.blog}/[^/]+/?$`);

/**
 * An HTML page from the assets with its security headers. The CSP admits exactly the inline
 * scripts this HTML carries (hashed here, so a rebuilt shell never needs a second list kept in
 * step), and Firebase's hosts only for the dashboard when Google sign-in is configured.
 */
async function htmlPage(c: Context<AppEnv>, asset: Response, status: number, dashboard: boolean) {
  const html = await asset.text();
  const headers = pageHeaders({
    scriptHashes: await inlineScriptHashes(html),
    firebaseAuthDomain: dashboard ? firebaseWebConfig(c.env)?.authDomain : null,
  });
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", ...headers },
  });
}

/**
 * Requests that matched no static file, and /app itself (wrangler.toml runs the Worker first for
 * it, so its CSP can follow the Firebase settings). Dashboard paths get the dashboard shell (the
 * client router takes over); an unknown blog post gets the built 404 page, which leads back to
 * /blog; any other unknown path redirects to / (spec section 2).
 */
export async function serveStatic(c: Context<AppEnv>) {
  const url = new URL(c.req.url);
  if (isDashboardPath(url.pathname)) {
    const shell = await c.env.ASSETS.fetch(new URL(DASHBOARD_SHELL, url));
    return htmlPage(c, shell, shell.ok ? 200 : shell.status, true);
  }
  if (BLOG_POST_PATH.test(url.pathname)) {
    const page = await c.env.ASSETS.fetch(new URL(staticPages.notFound, url));
    // Without a built site (worker-only tests) there is no page to show: fall back to the redirect.
    if (page.ok) return htmlPage(c, page, 404, false);
  }
  return c.redirect("/", 302);
}
