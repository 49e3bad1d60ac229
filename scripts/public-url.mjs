/**
 * The site's public address, for what the build writes as absolute URLs (canonical and Open Graph
 * links, sitemap.xml, robots.txt) and for HSTS: PUBLIC_URL (SITE_URL, its older name, still works),
 * else the address `npm start` serves on (HOST and PORT, default http://127.0.0.1:8787).
 * Returns an origin with no trailing slash; throws on a value that is not an http(s) URL.
 */
export function publicUrl(env = process.env) {
  const configured = env.PUBLIC_URL || env.SITE_URL;
  if (!configured) return `http://${env.HOST || "127.0.0.1"}:${env.PORT || "8787"}`;
  let url;
  try {
    url = new URL(configured);
  } catch {
    throw new Error(`PUBLIC_URL must be the site's address, like https://tala.example.com (got "${configured}")`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`PUBLIC_URL must start with https:// (got "${configured}")`);
  return url.origin;
}

/** True for an address only this machine can reach (what a deployed site must never announce). */
export function isLocalAddress(origin) {
  const host = new URL(origin).hostname;
  return host === "localhost" || host === "[::1]" || host.startsWith("127.") || host === "0.0.0.0";
}

/** Why a deploy must not use this address, or null when it may. */
export function deployUrlProblem(env = process.env) {
  if (!env.PUBLIC_URL && !env.SITE_URL) return "Set PUBLIC_URL to the site's address (https://…) before deploying: canonical links, the sitemap and Open Graph URLs are built from it.";
  const origin = publicUrl(env);
  if (isLocalAddress(origin)) return `PUBLIC_URL is ${origin}, an address only this machine can reach: set the site's public address before deploying.`;
  if (!origin.startsWith("https://")) return `PUBLIC_URL is ${origin}: a deployed site is served over https.`;
  return null;
}
