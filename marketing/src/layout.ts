import { appMessages, appRoutes, footerLinks, publicRoutes, serviceWorker, theme, PRODUCT_NAME } from "../../contract";
import { esc } from "./html";
import { icons, logo } from "./icons";
import { absoluteUrl } from "./sitemap";

/** What every page shares, computed once per build. */
export interface SiteContext {
  siteUrl: string;
  /** Minified stylesheet, inlined. */
  css: string;
  /** Minified scripts, inlined: theme before paint, and the page behaviour at the end of body. */
  headScript: string;
  pageScript: string;
  year: number;
}

export interface PageOptions {
  /** Site-relative path of the canonical URL. */
  canonicalPath: string;
  /** The document title; " | Tala" is appended unless it already names Tala. */
  title: string;
  description: string;
  lang?: "en" | "fr";
  ogType?: "website" | "article";
  /** Marks the top bar's Home link as the current page. */
  isHome?: boolean;
  noindex?: boolean;
  publishedTime?: string;
  /** Other-language versions: hreflang → path. */
  alternates?: Record<string, string>;
  main: string;
}

const OG_IMAGE = "/icons/og-image.png";
const OG_IMAGE_ALT = "Tala logo, a speech bubble holding a spark, beside the words: AI assistants for you and your website";
const OG_LOCALE = { en: "en_US", fr: "fr_FR" } as const;

function fullTitle(title: string): string {
  return title.includes(PRODUCT_NAME) ? title : `${title} | ${PRODUCT_NAME}`;
}

/** The Theme control, as in the dashboard: a native select labelled 'Theme', its icon showing the choice. */
function themeSelect(where: "top" | "foot"): string {
  const options = theme.values.map((v) => `<option value="${v}">${esc(appMessages.themeNames[v])}</option>`).join("");
  return `<label class="theme theme-${where}" data-choice="${theme.defaultMain}">${icons.light}${icons.dark}${icons.system}<span class="sr-only">${esc(appMessages.theme)}</span><select class="theme-select">${options}</select></label>`;
}

/**
 * The top bar of the app (spec section 2): name, Home, Theme, then Sign In and Get Started, or,
 * for a reader signed in to the dashboard in this browser, a menu headed by their first name with
 * Settings and Sign out (the page script swaps them once GET /api/auth/me confirms the session).
 */
function topBar(isHome: boolean): string {
  return `<header class="topbar" lang="en"><div class="bar">
<a class="brand" href="${publicRoutes.home}">${logo}<span>${esc(PRODUCT_NAME)}</span></a>
<nav class="nav" aria-label="Main">
<a class="home" href="${publicRoutes.home}"${isHome ? ' aria-current="page"' : ""}>${icons.home}<span>${esc(appMessages.home)}</span></a>
${themeSelect("top")}
<a class="btn ghost signed-out" href="${publicRoutes.login}">${esc(appMessages.signIn)}</a>
<a class="btn signed-out" href="${publicRoutes.register}">${esc(appMessages.getStarted)}</a>
<details class="account" hidden><summary class="btn ghost"><span class="account-name">${esc(appMessages.userFallbackName)}</span></summary>
<div class="account-menu"><a href="${appRoutes.settings}">${esc(appMessages.settings)}</a><button type="button" class="account-logout">${esc(appMessages.signOut)}</button></div></details>
</nav>
</div></header>`;
}

/** The footer of the app: store badge, credit line, Privacy Policy, Terms, FAQ, Blog (plus Theme on phones). */
function footer(year: number): string {
  const links = footerLinks.map((l) => `<li><a href="${l.path}">${esc(l.label)}</a></li>`).join("");
  return `<footer class="footer" lang="en"><div class="foot">
<div class="foot-start">
<a class="badge" href="${publicRoutes.faq}#how-do-i-install-tala-as-an-app">${logo}<span><small>${esc(appMessages.storeBadge.caption)}</small><strong>${esc(appMessages.storeBadge.title)}</strong></span></a>
<p class="credit">© ${year} ${esc(PRODUCT_NAME)}. ${esc(appMessages.credit)}</p>
</div>
<nav aria-label="Footer"><ul>${links}</ul></nav>
${themeSelect("foot")}
</div></footer>`;
}

/** A complete HTML document: head with SEO and Open Graph tags, top bar, main, footer, inline scripts. */
export function renderPage(site: SiteContext, page: PageOptions): string {
  const lang = page.lang ?? "en";
  const url = absoluteUrl(site.siteUrl, page.canonicalPath);
  const title = fullTitle(page.title);
  const alternates = Object.entries(page.alternates ?? {})
    .map(([hreflang, path]) => `<link rel="alternate" hreflang="${hreflang}" href="${esc(absoluteUrl(site.siteUrl, path))}">`)
    .join("\n");
  const article =
    page.ogType === "article" && page.publishedTime
      ? `<meta property="article:published_time" content="${esc(page.publishedTime)}">`
      : "";
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<meta name="description" content="${esc(page.description)}">`,
    page.noindex ? '<meta name="robots" content="noindex">' : "",
    `<link rel="canonical" href="${esc(url)}">`,
    alternates,
    `<meta property="og:type" content="${page.ogType ?? "website"}">`,
    `<meta property="og:site_name" content="${esc(PRODUCT_NAME)}">`,
    `<meta property="og:title" content="${esc(page.title)}">`,
    `<meta property="og:description" content="${esc(page.description)}">`,
    `<meta property="og:url" content="${esc(url)}">`,
    `<meta property="og:locale" content="${OG_LOCALE[lang]}">`,
    `<meta property="og:image" content="${esc(absoluteUrl(site.siteUrl, OG_IMAGE))}">`,
    '<meta property="og:image:width" content="1200">',
    '<meta property="og:image:height" content="630">',
    `<meta property="og:image:alt" content="${esc(OG_IMAGE_ALT)}">`,
    article,
    '<meta name="twitter:card" content="summary_large_image">',
    `<meta name="theme-color" content="${serviceWorker.themeColor}">`,
    `<link rel="manifest" href="${serviceWorker.manifestPath}">`,
    '<link rel="icon" href="/icons/logo.svg" type="image/svg+xml">',
    '<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">',
    `<script>${site.headScript}</script>`,
    `<style>${site.css}</style>`,
  ].filter(Boolean);
  return `<!doctype html>
<html lang="${lang}">
<head>
${head.join("\n")}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${topBar(page.isHome ?? false)}
<main id="main">
${page.main}
</main>
${footer(site.year)}
<script>${site.pageScript}</script>
</body>
</html>
`;
}
