/** sitemap.xml and robots.txt for the marketing site. */

export interface SitemapEntry {
  /** Site-relative path, e.g. "/blog". */
  path: string;
  /** YYYY-MM-DD. */
  lastmod?: string;
}

/** Joins the configured origin (with or without a trailing slash or a base path) and a site path. */
export function absoluteUrl(siteUrl: string, path: string): string {
  const base = siteUrl.replace(/\/+$/, "");
  return path === "/" ? `${base}/` : `${base}${path.startsWith("/") ? path : `/${path}`}`;
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** The sitemap of `entries`, de-duplicated by path, in the order given. */
export function buildSitemap(siteUrl: string, entries: readonly SitemapEntry[]): string {
  const seen = new Set<string>();
  const urls = entries
    .filter((e) => (seen.has(e.path) ? false : (seen.add(e.path), true)))
    .map((e) => {
      const lastmod = e.lastmod ? `<lastmod>${xmlEscape(e.lastmod)}</lastmod>` : "";
      return `  <url><loc>${xmlEscape(absoluteUrl(siteUrl, e.path))}</loc>${lastmod}</url>`;
    });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

/** robots.txt: the public site is crawlable; the app and the API are not pages to index. */
export function buildRobots(siteUrl: string, disallow: readonly string[]): string {
  const rules = disallow.map((p) => `Disallow: ${p}`).join("\n");
  return `User-agent: *\nAllow: /\n${rules}\n\nSitemap: ${absoluteUrl(siteUrl, "/sitemap.xml")}\n`;
}
