import { webSources } from "../../../contract";

/** Query parameters that only track a visit: the same page with or without them is one page. */
const isTrackingParam = (name: string) => {
  const lower = name.toLowerCase();
  return lower.startsWith("utm_") || lower === "fbclid" || lower === "gclid" || lower === "msclkid";
};

/** `search` without its tracking parameters; the others keep their order and their encoding. */
function withoutTracking(search: string): string {
  if (search.length <= 1) return "";
  const kept = search
    .slice(1)
    .split("&")
    .filter((pair) => {
      const equals = pair.indexOf("=");
      const raw = equals < 0 ? pair : pair.slice(0, equals);
      let name = raw;
      try {
        name = decodeURIComponent(raw.replaceAll("+", " "));
      } catch {
        // A malformed escape is kept as written: it is not one of ours to drop.
      }
      return pair !== "" && !isTrackingParam(name);
    });
  return kept.length ? `?${kept.join("&")}` : "";
}

/**
 * A page's address as the crawler keys it, or null when it is not one Tala reads: resolved
 * against `base`, http(s) only, no user name or password, fragment dropped, host lower-cased and
 * default port dropped (the WHATWG URL parser does both, and turns "" into "/"), tracking
 * parameters (utm_*, fbclid, gclid, msclkid) dropped from the query and an empty query removed.
 * Longer than `webSources.maxUrlChars`, before or after resolving: null.
 */
export function normalizePageUrl(href: string, base?: string): string | null {
  const trimmed = href.trim();
  if (!trimmed || trimmed.length > webSources.maxUrlChars) return null;
  let url: URL;
  try {
    url = base === undefined ? new URL(trimmed) : new URL(trimmed, base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || !url.hostname) return null;
  url.hash = "";
  url.search = withoutTracking(url.search);
  const result = url.href;
  return result.length > webSources.maxUrlChars ? null : result;
}

const parse = (value: string): URL | null => {
  try {
    return new URL(value);
  } catch {
    return null;
  }
};

/** The host as one site: lower-cased by the parser, a trailing dot and a leading "www." removed. */
const siteHost = (url: URL) => {
  const host = url.hostname.endsWith(".") ? url.hostname.slice(0, -1) : url.hostname;
  return host.startsWith("www.") ? host.slice(4) : host;
};

/**
 * True when both addresses are one site: same scheme, host and port, "www.x.com" and "x.com"
 * counting as one host. http and https are two sites: a crawler whose start page redirects to
 * https should take the final address as its start.
 */
export function sameSite(a: string, b: string): boolean {
  const left = parse(a);
  const right = parse(b);
  if (!left || !right) return false;
  return left.protocol === right.protocol && left.port === right.port && siteHost(left) === siteHost(right);
}

/**
 * True when `url` belongs to a crawl started at `start`: the same site, and when the start path is
 * not "/", under the start page's directory (the path up to its last "/"): a start of
 * https://x.com/docs/ or https://x.com/docs/intro keeps /docs/…, while https://x.com/docs (no
 * slash: a page of the root directory) keeps the whole site. The query is not part of the test.
 */
export function inScope(url: string, start: string): boolean {
  if (!sameSite(url, start)) return false;
  const page = parse(url)!;
  const origin = parse(start)!;
  const directory = origin.pathname.slice(0, origin.pathname.lastIndexOf("/") + 1) || "/";
  return directory === "/" || page.pathname.startsWith(directory);
}
