import type { HtmlElement } from "../extract/html-tree";

/**
 * What of a web page is not its content. Two kinds:
 * - "always": elements and ARIA roles that never hold the page's text (scripts, media, form
 *   controls, navigation, asides, dialogs, landmarks of the site's chrome);
 * - "heuristic": hidden elements and id/class names of cookie banners, consent managers,
 *   newsletter boxes, share bars, adverts, popups, breadcrumbs and skip links. A heuristic match
 *   that turns out to hold the content (`extractHtmlPage` checks in a first pass: a main, article
 *   or h1 inside, or most of the page's text) is kept.
 * The page's own <header>/<footer> and form buttons depend on where they stand (see `PageFilter`).
 */

export type Region = "main" | "article";

const set = (names: string) => new Set(names.split(" "));
const droppedElements = set("script style noscript template svg iframe canvas object embed video audio head title select textarea datalist option optgroup input nav aside dialog search");
const droppedRoles = set("navigation banner contentinfo complementary dialog alertdialog search menubar");
/** Never dropped by the heuristics: the document and its content landmarks. */
const neverHeuristic = set("html body main article");

/** Substrings of an id or class token that name a site's chrome wherever they stand ("CybotCookiebotDialog"). */
const chromeSubstrings = ["cookie", "consent", "gdpr", "newsletter", "advert", "breadcrumb", "popup", "onetrust", "adsbygoogle"];
/**
 * Whole words of an id or class token (split at "-", "_", digits and camelCase humps): "share-bar",
 * "ad-slot", "socialLinks", "skip-link"; "shareholders" or "header" do not match.
 */
const chromeWords = set("share sharing social ad ads modal skip");
/**
 * "cmp" (a consent-management platform) only as a whole token: Adobe Experience Manager names
 * every content component "cmp-…" (cmp-text, cmp-title), which must stay.
 */
const chromeTokens = set("cmp cmpbox");

/** The tokens of a role attribute (a list of fallbacks), lower-cased. */
const roles = (element: HtmlElement) => (element.attrs.get("role") ?? "").slice(0, 256).toLowerCase().split(/\s+/);

/** "main" for <main> or role=main, "article" for <article>, else null. */
export function regionOf(element: HtmlElement): Region | null {
  if (element.name === "main") return "main";
  if (element.name === "article") return "article";
  const role = element.attrs.get("role");
  return role !== undefined && roles(element).includes("main") ? "main" : null;
}

export const isRegion = (element: HtmlElement, region: Region) => regionOf(element) === region;

/** The words of one id/class token: split at non-letters and at a lower-to-upper case change. */
function words(token: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i <= token.length; i++) {
    const code = token.charCodeAt(i);
    const letter = (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
    const hump = code >= 0x41 && code <= 0x5a && i > start && token.charCodeAt(i - 1) >= 0x61 && token.charCodeAt(i - 1) <= 0x7a;
    if (!letter || hump) {
      if (i > start) out.push(token.slice(start, i).toLowerCase());
      start = letter ? i : i + 1;
    }
  }
  return out;
}

/** True when an id or class value names a site's chrome. Reads its first 1,024 characters. */
function namesChrome(value: string | undefined): boolean {
  if (!value) return false;
  for (const token of value.slice(0, 1024).split(/\s+/)) {
    if (!token) continue;
    const lower = token.toLowerCase();
    if (chromeTokens.has(lower) || chromeSubstrings.some((part) => lower.includes(part))) return true;
    if (words(token).some((word) => chromeWords.has(word))) return true;
  }
  return false;
}

/** True when an inline style hides the element (display:none or visibility:hidden). */
function hiddenByStyle(style: string | undefined): boolean {
  if (!style) return false;
  const compact = style.slice(0, 1024).toLowerCase().replace(/\s+/g, "");
  return compact.includes("display:none") || compact.includes("visibility:hidden");
}

/** True when `element` is boilerplate of the given kind (see the module comment). */
export function isBoilerplate(element: HtmlElement, kind: "always" | "heuristic"): boolean {
  const { name, attrs } = element;
  if (kind === "always") {
    if (droppedElements.has(name)) return true;
    return attrs.has("role") && roles(element).some((role) => droppedRoles.has(role));
  }
  if (neverHeuristic.has(name) || regionOf(element) !== null) return false;
  const hidden = attrs.get("hidden");
  if (hidden !== undefined && hidden.toLowerCase() !== "until-found") return true;
  if (attrs.get("aria-hidden")?.toLowerCase() === "true") return true;
  if (hiddenByStyle(attrs.get("style"))) return true;
  return namesChrome(attrs.get("id")) || namesChrome(attrs.get("class"));
}
