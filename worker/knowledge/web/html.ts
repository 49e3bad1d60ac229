import { knowledgeLimits, webSources } from "../../../contract";
import { KnowledgeError } from "../errors";
import { BlockCollector, normalizeInline } from "../extract/collector";
import { ExtractGuard } from "../extract/guard";
import { HtmlBlockReader } from "../extract/html-blocks";
import { decodeHtmlEntities } from "../extract/html-entities";
import { walkHtml, type HtmlElement, type HtmlTreeHandler } from "../extract/html-tree";
import type { Block } from "../types";
import { isBoilerplate, isRegion, regionOf, type Region } from "./boilerplate";
import { normalizePageUrl } from "./url";

/** What the crawler keeps of one HTML page. */
export interface HtmlPage {
  /** <title>, else og:title, else the first h1; whitespace collapsed, at most `webSources.maxTitleChars`; "" when none. */
  title: string;
  /** The main text as blocks for `chunkBlocks` (headings with their level, paragraphs, list items, table rows). */
  blocks: Block[];
  /** Absolute http(s) links of the page (`normalizePageUrl` against <base href> or the page), deduplicated, at most `webSources.maxLinksPerPage`; none when nofollow. */
  links: string[];
  /** A robots meta tag (robots, talabot or googlebot) says noindex / nofollow ("none" says both). */
  noindex: boolean;
  nofollow: boolean;
  /** <link rel="canonical">, resolved and normalised; null when absent or not http(s). */
  canonical: string | null;
  /** True when a cap cut the text (page length, a block or row past `maxLineChars`, the block budget). */
  truncated: boolean;
}

/** Directive parts of a robots meta tag or X-Robots-Tag that carry a value of their own (not a user agent). */
const valuedDirectives = new Set(["unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"]);

/**
 * noindex / nofollow of a robots meta tag's content or an X-Robots-Tag header ("noindex, nofollow",
 * "none", "talabot: noindex"; a part naming another user agent is ignored). Reads at most 4 KB.
 */
export function robotsDirectives(value: string, productToken = "TalaBot"): { noindex: boolean; nofollow: boolean } {
  const token = productToken.toLowerCase();
  const result = { noindex: false, nofollow: false };
  for (const part of value.slice(0, 4096).toLowerCase().split(",")) {
    let directives = part.trim();
    const colon = directives.indexOf(":");
    if (colon > 0) {
      const agent = directives.slice(0, colon).trim();
      if (!valuedDirectives.has(agent)) {
        if (agent !== token) continue;
        directives = directives.slice(colon + 1);
      }
    }
    for (const word of directives.split(/[\s,]+/)) {
      if (word === "noindex" || word === "none") result.noindex = true;
      if (word === "nofollow" || word === "none") result.nofollow = true;
    }
  }
  return result;
}

/** `text` cut to `max` characters without splitting a surrogate pair. */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** A title-like value: entities decoded, whitespace collapsed, at most `maxTitleChars`. */
const cleanTitle = (raw: string) => cutText(normalizeInline(decodeHtmlEntities(raw.slice(0, webSources.maxTitleChars * 8))), webSources.maxTitleChars);

const hasToken = (value: string | undefined, token: string) => value !== undefined && value.toLowerCase().split(/\s+/).includes(token);

/** Elements whose content is inert for links and head data (a template's content, svg and math). */
const inertElements = new Set(["template", "svg", "math"]);

/**
 * Pass 1: what the page says about itself (title, og:title, first h1, <base>, canonical, robots
 * meta, whether it has a <main> or <article>) and, for each element the boilerplate heuristics
 * would drop, whether it holds the main content (a main, article or h1 inside it, or more than
 * half the page's text): those are kept in pass 2.
 */
class PageScan implements HtmlTreeHandler {
  readonly stopped = false;
  title: string | null = null;
  ogTitle: string | null = null;
  h1: string | null = null;
  base: string | null = null;
  canonical: string | null = null;
  noindex = false;
  nofollow = false;
  hasMain = false;
  hasArticle = false;
  private h1Pieces: string[] | null = null;
  private h1Chars = 0;
  private inert = 0;
  private textChars = 0;
  private readonly frames: Array<{ candidate: boolean; holdsKey: boolean; textAt: number }> = [];
  private readonly candidates: Array<{ ordinal: number; chars: number; holdsKey: boolean }> = [];

  constructor(private readonly guard: ExtractGuard) {}

  tick(): void {
    this.guard.tick();
  }

  enter(element: HtmlElement): void {
    const { name, attrs } = element;
    this.frames.push({ candidate: isBoilerplate(element, "heuristic"), holdsKey: false, textAt: this.textChars });
    if (inertElements.has(name)) this.inert++;
    if (this.inert) return;
    const href = attrs.get("href");
    if (name === "base" && this.base === null && href) this.base = decodeHtmlEntities(href.slice(0, webSources.maxUrlChars * 6));
    else if (name === "link" && this.canonical === null && href && hasToken(attrs.get("rel"), "canonical")) this.canonical = decodeHtmlEntities(href.slice(0, webSources.maxUrlChars * 6));
    else if (name === "meta") this.meta(element);
    else if (name === "h1" && this.h1 === null && !this.h1Pieces) this.h1Pieces = [];
    const region = regionOf(element);
    if (region === "main") this.hasMain = true;
    else if (region === "article") this.hasArticle = true;
  }

  private meta({ attrs }: HtmlElement): void {
    const content = attrs.get("content");
    if (content === undefined) return;
    const name = (attrs.get("name") ?? "").toLowerCase();
    const property = (attrs.get("property") ?? "").toLowerCase();
    if (name === "robots" || name === "talabot" || name === "googlebot") {
      const directives = robotsDirectives(decodeHtmlEntities(content.slice(0, 4096)));
      this.noindex ||= directives.noindex;
      this.nofollow ||= directives.nofollow;
    } else if ((property === "og:title" || name === "og:title") && this.ogTitle === null) this.ogTitle = cleanTitle(content);
  }

  leave(element: HtmlElement): void {
    const frame = this.frames.pop()!;
    const key = element.name === "h1" || regionOf(element) !== null;
    const parent = this.frames[this.frames.length - 1];
    if (parent && (key || frame.holdsKey)) parent.holdsKey = true;
    if (frame.candidate) this.candidates.push({ ordinal: element.ordinal, chars: this.textChars - frame.textAt, holdsKey: frame.holdsKey });
    if (inertElements.has(element.name)) this.inert--;
    else if (element.name === "h1" && this.h1Pieces && !this.inert) {
      this.h1 = cleanTitle(this.h1Pieces.join(""));
      this.h1Pieces = null;
    }
  }

  text(raw: string): void {
    if (this.inert) return;
    this.textChars += raw.length;
    if (this.h1Pieces && this.h1Chars < webSources.maxTitleChars * 8) {
      this.h1Pieces.push(raw.slice(0, webSources.maxTitleChars * 8));
      this.h1Chars += raw.length;
    }
  }

  rawText(name: string, raw: string): void {
    if (name === "title" && this.title === null && !this.inert) this.title = cleanTitle(raw);
  }

  /** Ordinals of boilerplate-looking elements that hold the page's content, to keep. */
  kept(): Set<number> {
    const total = this.textChars;
    return new Set(this.candidates.filter((c) => c.holdsKey || c.chars * 2 > total).map((c) => c.ordinal));
  }
}

const DROP = 1;
const REGION = 2;
const FORWARD = 4;
const SECTION = 8;
const HEADING = 16;
const INERT = 32;
const FORM = 64;

/** Elements inside which a <header> or <footer> belongs to the content, not to the page. */
const sectioning = new Set(["article", "aside", "main", "nav", "section"]);

/**
 * Pass 2: forwards to the block reader only the main content (the region's elements, or the whole
 * body), minus boilerplate; gathers the page's links from everywhere (navigation included).
 */
class PageFilter implements HtmlTreeHandler {
  readonly links = new Set<string>();
  private readonly frames: number[] = [];
  private dropDepth = 0;
  private regionDepth = 0;
  private sectionDepth = 0;
  private headingDepth = 0;
  private formDepth = 0;
  private inert = 0;

  constructor(
    private readonly reader: HtmlBlockReader,
    private readonly region: Region | "all",
    private readonly keep: Set<number>,
    private readonly base: string | null,
    private readonly self: string | null,
    private readonly followLinks: boolean,
  ) {}

  get stopped(): boolean {
    return this.reader.stopped;
  }

  tick(): void {
    this.reader.tick();
  }

  private get forwarding(): boolean {
    return this.dropDepth === 0 && (this.region === "all" || this.regionDepth > 0);
  }

  private drops(element: HtmlElement): boolean {
    if (isBoilerplate(element, "always")) return true;
    const { name } = element;
    // A page's own header and footer; an article's or section's are part of it.
    if ((name === "header" || name === "footer") && this.sectionDepth === 0 && this.regionDepth === 0) return true;
    // Form buttons and labels go, but an accordion's question is a <button> inside a heading.
    if (name === "button" && this.headingDepth === 0) return true;
    if (name === "label" && this.formDepth > 0) return true;
    return isBoilerplate(element, "heuristic") && !this.keep.has(element.ordinal);
  }

  enter(element: HtmlElement): void {
    const { name, attrs } = element;
    let flags = 0;
    if (this.dropDepth === 0 && this.drops(element)) flags |= DROP;
    if (this.region !== "all" && isRegion(element, this.region)) flags |= REGION;
    if (sectioning.has(name)) flags |= SECTION;
    if (name.length === 2 && name[0] === "h" && name[1]! >= "1" && name[1]! <= "6") flags |= HEADING;
    if (inertElements.has(name)) flags |= INERT;
    if (name === "form") flags |= FORM;
    if (this.followLinks && !this.inert && (name === "a" || name === "area")) this.link(attrs.get("href"), attrs.get("rel"));
    if (flags & DROP) this.dropDepth++;
    if (flags & REGION) this.regionDepth++;
    if (flags & SECTION) this.sectionDepth++;
    if (flags & HEADING) this.headingDepth++;
    if (flags & INERT) this.inert++;
    if (flags & FORM) this.formDepth++;
    if (this.forwarding) {
      flags |= FORWARD;
      this.reader.enter(element);
    }
    this.frames.push(flags);
  }

  leave(element: HtmlElement): void {
    const flags = this.frames.pop()!;
    if (flags & FORWARD) this.reader.leave(element);
    if (flags & DROP) this.dropDepth--;
    if (flags & REGION) this.regionDepth--;
    if (flags & SECTION) this.sectionDepth--;
    if (flags & HEADING) this.headingDepth--;
    if (flags & INERT) this.inert--;
    if (flags & FORM) this.formDepth--;
  }

  text(raw: string): void {
    if (this.forwarding) this.reader.text(raw);
  }

  rawText(name: string, raw: string): void {
    if (this.forwarding) this.reader.rawText(name, raw);
  }

  private link(href: string | undefined, rel: string | undefined): void {
    if (!href || this.links.size >= webSources.maxLinksPerPage || !this.base) return;
    // rel="nofollow" (and its sponsored / ugc variants) asks crawlers not to follow that link.
    if (hasToken(rel, "nofollow") || hasToken(rel, "sponsored") || hasToken(rel, "ugc")) return;
    if (href.length > webSources.maxUrlChars * 6) return;
    const url = normalizePageUrl(decodeHtmlEntities(href), this.base);
    if (url && url !== this.self) this.links.add(url);
  }
}

/** The http(s) URL relative links resolve against: <base href> (itself resolved against the page), else the page. */
function baseUrl(base: string | null, pageUrl: string): string | null {
  const page = normalizePageUrl(pageUrl);
  if (base === null) return page;
  try {
    const url = new URL(base.trim(), page ?? undefined);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : page;
  } catch {
    return page;
  }
}

/**
 * The main text, title, links and robots signals of an HTML page (`pageUrl`: its final address).
 *
 * Main text only: script, style, templates, svg, iframes, canvas, form controls, navigation, the
 * page's header and footer, asides, dialogs, the ARIA landmarks that are not content, hidden
 * elements and cookie / consent / newsletter / share / advert / popup / breadcrumb / skip-link
 * blocks are dropped (see `boilerplate.ts`); when the page has a <main> (or role=main), else
 * <article>s, only that is read (the whole body when it holds no text).
 *
 * Bounded whatever the input: at most `webSources.maxPageBytes` characters are read, twice, by a
 * linear tokenizer (no backtracking regex, no recursion; the open-element stack is capped at
 * `knowledgeLimits.maxNestingDepth`); a block's text is capped at `maxLineChars` and the blocks by
 * the collector's budgets (`truncated` says so). Never throws.
 */
export function extractHtmlPage(html: string, pageUrl: string): HtmlPage {
  const tooLong = html.length > webSources.maxPageBytes;
  const text = tooLong ? html.slice(0, webSources.maxPageBytes) : html;
  const guard = new ExtractGuard(pageUrl.slice(0, 200), knowledgeLimits.maxExtractMs, undefined, text.length);
  const scan = new PageScan(guard);
  let truncated = tooLong;
  try {
    walkHtml(text, scan);
  } catch (error) {
    if (!(error instanceof KnowledgeError)) throw error;
    truncated = true;
  }
  const region: Region | "all" = scan.hasMain ? "main" : scan.hasArticle ? "article" : "all";
  const base = baseUrl(scan.base, pageUrl);
  const follow = !scan.nofollow;
  const keep = scan.kept();

  const read = (from: Region | "all") => {
    const out = new BlockCollector(knowledgeLimits.maxExtractedChars, guard);
    const reader = new HtmlBlockReader(out, { listMarkers: true, cutOverLimits: true });
    const filter = new PageFilter(reader, from, keep, base, normalizePageUrl(pageUrl), follow);
    let cut = false;
    try {
      walkHtml(text, filter);
      reader.finish();
    } catch (error) {
      if (!(error instanceof KnowledgeError)) throw error;
      cut = true;
    }
    return { blocks: out.blocks, links: filter.links, truncated: cut || out.truncated || reader.cut };
  };
  let result = read(region);
  // A <main> or <article> that holds no text (an empty shell, markup gone wrong): read the whole body.
  if (region !== "all" && !result.blocks.length) result = { ...read("all"), links: result.links };

  let canonical: string | null = null;
  if (scan.canonical !== null && base) canonical = normalizePageUrl(scan.canonical, base);
  return {
    title: scan.title || scan.ogTitle || scan.h1 || "",
    blocks: result.blocks,
    links: follow ? [...result.links] : [],
    noindex: scan.noindex,
    nofollow: scan.nofollow,
    canonical,
    truncated: truncated || result.truncated,
  };
}
