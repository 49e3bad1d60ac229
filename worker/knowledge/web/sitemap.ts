import { webSources } from "../../../contract";
import { decodeEntities } from "../extract/collector";
import { normalizePageUrl } from "./url";

export interface SitemapLinks {
  /** Page URLs of a <urlset> (or a plain-text sitemap), normalised, deduplicated, at most `limit`. */
  urls: string[];
  /** Sitemap URLs of a <sitemapindex>, normalised, deduplicated, at most `webSources.maxSitemapFiles`. */
  sitemaps: string[];
}

/** `<loc>` text gathered beyond this is not a URL Tala keeps (the slack allows whitespace around one). */
const maxLocChars = webSources.maxUrlChars + 1024;

const isNameCode = (code: number) => code > 0x20 && code !== 0x2f && code !== 0x3e;

/**
 * The page and sitemap URLs of a sitemap (sitemaps.org protocol): `<url><loc>` of a <urlset>,
 * `<sitemap><loc>` of a <sitemapindex>, any namespace prefix; only a <loc> directly inside its
 * entry counts (an <image:loc> nested in <image:image> does not). Values are trimmed, entity- or
 * CDATA-decoded, kept when http(s) (`normalizePageUrl`). A body that does not start with "<" is read
 * as a plain-text sitemap, one URL a line. Reads at most `webSources.maxSitemapBytes` characters
 * with one forward scan (`indexOf`, no regex, no recursion, no DTD) and stops at `limit` URLs.
 * Junk yields what it holds and never throws.
 */
export function parseSitemap(xml: string, limit: number): SitemapLinks {
  const text = xml.slice(xml.charCodeAt(0) === 0xfeff ? 1 : 0, webSources.maxSitemapBytes);
  const urls = new Set<string>();
  const sitemaps = new Set<string>();
  const keep = (value: string, into: "url" | "sitemap") => {
    const url = normalizePageUrl(value);
    if (!url) return;
    if (into === "url" && urls.size < limit) urls.add(url);
    else if (into === "sitemap" && sitemaps.size < webSources.maxSitemapFiles) sitemaps.add(url);
  };
  if (!text.trimStart().startsWith("<")) {
    for (let start = 0; start < text.length && urls.size < limit; ) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      keep(text.slice(start, end), "url");
      start = end + 1;
    }
    return { urls: [...urls], sitemaps: [] };
  }

  /** The entry being read (<url> or <sitemap>), the depth of elements open inside it, the <loc> text. */
  let entry: "url" | "sitemap" | null = null;
  let depth = 0;
  let loc: string[] | null = null;
  let locChars = 0;
  const addLoc = (piece: string) => {
    locChars += piece.length;
    if (loc && locChars <= maxLocChars) loc.push(piece);
  };
  const n = text.length;
  for (let i = 0; i < n && urls.size < limit; ) {
    const lt = text.indexOf("<", i);
    const stop = lt < 0 ? n : lt;
    if (loc && stop > i) addLoc(decodeEntities(text.slice(i, Math.min(stop, i + maxLocChars))));
    if (lt < 0) break;
    if (text.startsWith("<!--", lt)) {
      const end = text.indexOf("-->", lt + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (text.startsWith("<![CDATA[", lt)) {
      const end = text.indexOf("]]>", lt + 9);
      if (loc) addLoc(text.slice(lt + 9, Math.min(end < 0 ? n : end, lt + 9 + maxLocChars)));
      i = end < 0 ? n : end + 3;
      continue;
    }
    const end = text.indexOf(">", lt + 1);
    if (end < 0) break;
    i = end + 1;
    const first = text.charCodeAt(lt + 1);
    if (first === 0x3f || first === 0x21) continue; // <?xml …?>, <!DOCTYPE …>
    const closing = first === 0x2f;
    let nameEnd = lt + (closing ? 2 : 1);
    const nameStart = nameEnd;
    while (nameEnd < end && isNameCode(text.charCodeAt(nameEnd))) nameEnd++;
    const qualified = text.slice(nameStart, Math.min(nameEnd, nameStart + 64)).toLowerCase();
    const name = qualified.slice(qualified.indexOf(":") + 1);
    const selfClosing = !closing && text.charCodeAt(end - 1) === 0x2f;
    if (!entry) {
      if (!closing && !selfClosing && (name === "url" || name === "sitemap")) {
        entry = name;
        depth = 0;
      }
      continue;
    }
    if (closing) {
      if (loc && name === "loc") {
        const value = loc.join("").trim();
        loc = null;
        if (locChars <= maxLocChars) keep(value, entry);
      }
      // The entry's end closes whatever was left open inside it.
      if (name === entry) {
        entry = null;
        loc = null;
      } else if (depth > 0) depth--;
      continue;
    }
    if (selfClosing) continue;
    depth++;
    if (depth === 1 && name === "loc") {
      loc = [];
      locChars = 0;
    }
  }
  return { urls: [...urls], sitemaps: [...sitemaps] };
}
