import { webSources } from "../../../contract";
import type { FetchPageResult } from "./fetch-page";

/** What a site's robots.txt allows the crawler (RFC 9309). */
export interface Robots {
  /** `pathAndQuery`: the URL's path and query ("/docs/a?x=1"), as `URL.pathname + URL.search` writes it. */
  isAllowed(pathAndQuery: string): boolean;
  /** The group's Crawl-delay in milliseconds (seconds in the file, fractions allowed), or null. Not capped here. */
  crawlDelayMs: number | null;
  /** Absolute http(s) sitemap URLs of the file, in order, deduplicated, at most `webSources.maxSitemapFiles`. */
  sitemaps: string[];
}

interface Rule {
  allow: boolean;
  /** Literal pieces between the `*` wildcards of the normalised pattern. */
  pieces: string[];
  /** The pattern ended with `$`: it must match up to the end of the path. */
  anchored: boolean;
  /** Octets of the normalised pattern: the longest match wins (RFC 9309 §2.2.2). */
  length: number;
  /** Characters the path needs at least (the pieces' lengths), a cheap first test. */
  minLength: number;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelayMs: number | null;
}

const isHex = (code: number) => (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
const isUnreserved = (code: number) =>
  (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e || code === 0x5f || code === 0x7e;
/** ASCII characters a URL path always percent-encodes (controls, space, quotes, angle and curly brackets, backtick). */
const mustEncode = (code: number) => code <= 0x20 || code === 0x22 || code === 0x3c || code === 0x3e || code === 0x60 || code === 0x7b || code === 0x7d || code === 0x7f;

/**
 * One spelling for patterns and paths (RFC 9309 §2.2.2): %XX of an unreserved character decoded,
 * other %XX upper-cased, non-ASCII and unsafe ASCII characters percent-encoded as UTF-8. Linear.
 */
function normalizePath(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x25 && i + 2 < text.length && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2))) {
      const byte = parseInt(text.slice(i + 1, i + 3), 16);
      out += isUnreserved(byte) ? String.fromCharCode(byte) : `%${text.slice(i + 1, i + 3).toUpperCase()}`;
      i += 2;
    } else if (code > 0x7f) {
      const point = text.codePointAt(i)!;
      const char = String.fromCodePoint(point);
      i += char.length - 1;
      try {
        out += encodeURIComponent(char);
      } catch {
        out += "%EF%BF%BD"; // a lone surrogate: U+FFFD, as a URL parser writes it
      }
    } else if (mustEncode(code)) {
      out += `%${code.toString(16).toUpperCase().padStart(2, "0")}`;
    } else out += text[i];
  }
  return out;
}

function makeRule(allow: boolean, value: string): Rule | null {
  // An empty pattern matches nothing (RFC 9309 §2.2.2: "Disallow:" disallows nothing).
  if (!value) return null;
  let pattern = normalizePath(value);
  const anchored = pattern.endsWith("$");
  if (anchored) pattern = pattern.slice(0, -1);
  // "$" anywhere else is a literal character; the pattern's length counts it as written.
  const pieces = pattern.split("*");
  return { allow, pieces, anchored, length: pattern.length + (anchored ? 1 : 0), minLength: pieces.reduce((sum, piece) => sum + piece.length, 0) };
}

/**
 * True when the rule matches `path` from its start. Wildcards are matched greedily leftmost: with
 * `*` the only wildcard, taking each piece at its first occurrence after the previous one leaves
 * the most room for the rest, so the first failure is final. Each `indexOf` starts where the last
 * piece ended: linear in the path per rule, whatever the pattern (`/*a*a*a*a*b` included).
 */
function matches(rule: Rule, path: string): boolean {
  if (path.length < rule.minLength) return false;
  const { pieces, anchored } = rule;
  if (!path.startsWith(pieces[0]!)) return false;
  if (pieces.length === 1) return anchored ? path.length === pieces[0]!.length : true;
  let at = pieces[0]!.length;
  const last = pieces.length - 1;
  for (let k = 1; k < last; k++) {
    const found = path.indexOf(pieces[k]!, at);
    if (found < 0) return false;
    at = found + pieces[k]!.length;
  }
  const tail = pieces[last]!;
  if (!anchored) return path.indexOf(tail, at) >= 0;
  return path.length - tail.length >= at && path.endsWith(tail);
}

/** The product token a user-agent line names: its leading letters, "_" and "-", lower-cased; or "*". */
function agentToken(value: string): string {
  if (value.startsWith("*")) return "*";
  let end = 0;
  while (end < value.length && /[A-Za-z_-]/.test(value[end]!)) end++;
  return value.slice(0, end).toLowerCase();
}

/** Keys as written, and the misspellings crawlers commonly accept. */
const keyNames: Record<string, "user-agent" | "allow" | "disallow" | "crawl-delay" | "sitemap"> = {
  "user-agent": "user-agent",
  useragent: "user-agent",
  "user agent": "user-agent",
  allow: "allow",
  disallow: "disallow",
  dissallow: "disallow",
  dissalow: "disallow",
  disalow: "disallow",
  "crawl-delay": "crawl-delay",
  crawldelay: "crawl-delay",
  sitemap: "sitemap",
  "site-map": "sitemap",
};

class ParsedRobots implements Robots {
  constructor(
    private readonly rules: Rule[],
    readonly crawlDelayMs: number | null,
    readonly sitemaps: string[],
  ) {}

  isAllowed(pathAndQuery: string): boolean {
    const raw = pathAndQuery.startsWith("/") ? pathAndQuery : `/${pathAndQuery}`;
    const query = raw.indexOf("?");
    // RFC 9309 §2.5: /robots.txt is always allowed.
    if ((query < 0 ? raw : raw.slice(0, query)) === "/robots.txt") return true;
    const path = normalizePath(raw.slice(0, webSources.maxUrlChars));
    let best: Rule | null = null;
    for (const rule of this.rules) {
      // Longest match wins; on a tie Allow wins (RFC 9309 §2.2.2), so a tie only replaces a Disallow.
      if (best && (rule.length < best.length || (rule.length === best.length && (best.allow || !rule.allow)))) continue;
      if (matches(rule, path)) best = rule;
    }
    return best ? best.allow : true;
  }
}

/**
 * Reads a robots.txt (RFC 9309) for the crawler named `productToken`: the groups naming it
 * (case-insensitive, combined when several) or else the `*` groups; the longest matching rule
 * wins and Allow wins a tie; `*` and a final `$` are wildcards; patterns and paths are compared
 * percent-encoding-normalised; /robots.txt is always allowed. Only the first
 * `webSources.maxRobotsBytes` characters are read. Linear in the file; `isAllowed` is linear in
 * the rules and the path.
 */
export function parseRobots(text: string, productToken = "TalaBot"): Robots {
  const token = agentToken(productToken);
  const body = text.slice(text.charCodeAt(0) === 0xfeff ? 1 : 0, webSources.maxRobotsBytes);
  const groups: Group[] = [];
  const sitemaps = new Set<string>();
  let current: Group | null = null;
  let inAgents = false;
  for (let start = 0; start < body.length; ) {
    let end = body.indexOf("\n", start);
    if (end < 0) end = body.length;
    let line = body.slice(start, end);
    start = end + 1;
    const hash = line.indexOf("#");
    if (hash >= 0) line = line.slice(0, hash);
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = keyNames[line.slice(0, colon).trim().toLowerCase()];
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      // Consecutive user-agent lines open one group; one after rules opens the next.
      if (!current || !inAgents) groups.push((current = { agents: [], rules: [], crawlDelayMs: null }));
      current.agents.push(agentToken(value));
      inAgents = true;
    } else if (key === "allow" || key === "disallow") {
      inAgents = false;
      const rule = makeRule(key === "allow", value);
      if (current && rule) current.rules.push(rule);
    } else if (key === "crawl-delay") {
      inAgents = false;
      const seconds = Number(value);
      if (current && current.crawlDelayMs === null && value && Number.isFinite(seconds) && seconds >= 0) current.crawlDelayMs = Math.round(seconds * 1000);
    } else if (key === "sitemap") {
      // Sitemap lines stand outside the groups (RFC 9309 §2.3.5).
      if (sitemaps.size < webSources.maxSitemapFiles && value.length <= webSources.maxUrlChars) {
        try {
          const url = new URL(value);
          if (url.protocol === "http:" || url.protocol === "https:") sitemaps.add(url.href);
        } catch {
          // not an absolute URL: ignored
        }
      }
    }
  }
  let chosen = groups.filter((group) => token && group.agents.includes(token));
  if (!chosen.length) chosen = groups.filter((group) => group.agents.includes("*"));
  const delay = chosen.find((group) => group.crawlDelayMs !== null)?.crawlDelayMs ?? null;
  return new ParsedRobots(
    chosen.flatMap((group) => group.rules),
    delay,
    [...sitemaps],
  );
}

const allowAll: Robots = new ParsedRobots([], null, []);
const disallowAll: Robots = new ParsedRobots([makeRule(false, "/")!], null, []);

/**
 * The robots rules a robots.txt answer implies without a body to read, or null when the body must
 * be read (2xx: `parseRobots`):
 * - 4xx: "unavailable", the crawler may access anything (RFC 9309 §2.3.1.3); except 429 Too Many
 *   Requests, which says the server is overloaded and is treated as unreachable (as Google does);
 * - 3xx still redirecting after the fetcher's hops: unavailable (§2.3.1.2 allows this after five);
 * - 5xx or unreachable (network error, timeout): "unreachable", the crawler must assume complete
 *   disallow (§2.3.1.4).
 */
export function robotsForStatus(status: number | "unreachable"): Robots | null {
  if (status === "unreachable") return disallowAll;
  if (status >= 200 && status < 300) return null;
  if (status === 429) return disallowAll;
  if ((status >= 300 && status < 400) || (status >= 400 && status < 500)) return allowAll;
  return disallowAll;
}

/**
 * The robots rules of a robots.txt fetched with `fetchPage` (kinds "text", overflow "truncate"):
 * a body is parsed; a refusal maps through `robotsForStatus` (an address that is not public
 * refuses everything; a body that is not text, or too many redirects, is unavailable).
 */
export function robotsFromFetch(result: FetchPageResult, productToken = "TalaBot"): Robots {
  if (result.ok) return result.status === 200 ? parseRobots(result.body, productToken) : allowAll;
  switch (result.reason) {
    case "http":
      return robotsForStatus(result.status ?? 500) ?? disallowAll;
    case "not-html":
    case "redirects":
    case "too-large":
      return allowAll;
    default:
      return disallowAll;
  }
}
