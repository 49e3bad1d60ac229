/**
 * The website crawler's pure building blocks: address checks, URL rules, robots.txt,
 * sitemaps, fetching one page safely and reading its main text. See ../README.md ("Web pages").
 */
export { isBlockedHostname, isIpLiteral, isPublicAddress, resolvePublic, type ResolveResult } from "./address";
export { decodeBody, fetchPage, type FetchFailureReason, type FetchPageOptions, type FetchPageResult } from "./fetch-page";
export { extractHtmlPage, robotsDirectives, type HtmlPage } from "./html";
export { parseRobots, robotsForStatus, robotsFromFetch, type Robots } from "./robots";
export { parseSitemap, type SitemapLinks } from "./sitemap";
export { inScope, normalizePageUrl, sameSite } from "./url";
