/**
 * A linear HTML tokenizer for untrusted pages: start and end tags (attributes parsed with quotes
 * respected), character data, comments, doctype and processing instructions skipped, and the
 * contents of raw-text elements (script, style, textarea, title…) handed over whole, never read as
 * markup. Every character is looked at a bounded number of times (`indexOf` jumps and one forward
 * scan per tag), nothing recurses and no regex runs over the input. Follows the WHATWG tokenizer
 * where it matters for the text: "<" not followed by a letter, "/" or "!" is text; a tag or quoted
 * attribute value left open at the end of the input is dropped (as browsers do); "<!-->" is a
 * complete comment; "</>" is ignored; "</ …>" and "<?…>" are bogus comments.
 */

/** Attributes of a tag: lower-cased names → raw values (entities not decoded); the first of a name wins. */
export type HtmlAttributes = ReadonlyMap<string, string>;

export interface HtmlTokenSink {
  startTag(name: string, attrs: HtmlAttributes, selfClosing: boolean): void;
  endTag(name: string): void;
  /** Character data, entities not decoded; consecutive text (a lone "<" included) comes as one piece. */
  text(raw: string): void;
  /** The whole content of the raw-text element `name` just started (or of a CDATA section, name "#cdata"), undecoded. */
  rawText(name: string, raw: string): void;
  /** True inside svg or math, where "<![CDATA[" opens text and script/style/title are ordinary elements. */
  readonly foreign: boolean;
  /** True once the sink wants nothing more (its budget is spent): the scan stops. */
  readonly stopped: boolean;
  /** Called once per tag or markup declaration: a place to count work. */
  tick?(): void;
}

/** Elements whose content is not markup: raw text (script, style…) or escapable raw text (textarea, title). */
export const rawTextElements: ReadonlySet<string> = new Set(["script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea", "title"]);

/** Attributes kept per tag; the rest are scanned and dropped. */
const MAX_ATTRIBUTES = 64;
/** A tag or attribute name longer than this is kept as "" (no element or attribute Tala reads is that long). */
const MAX_NAME = 64;

const noAttributes: HtmlAttributes = new Map();
const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
const isLetter = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);

interface Tag {
  name: string;
  attrs: HtmlAttributes;
  selfClosing: boolean;
  /** Index just past the tag's ">". */
  end: number;
}

/** Reads the tag whose name starts at `start`; null when the input ends inside it. */
function readTag(html: string, start: number): Tag | null {
  const n = html.length;
  let p = start;
  while (p < n) {
    const code = html.charCodeAt(p);
    if (isSpace(code) || code === 0x2f || code === 0x3e) break;
    p++;
  }
  const name = p - start <= MAX_NAME ? html.slice(start, p).toLowerCase() : "";
  let attrs: Map<string, string> | null = null;
  let selfClosing = false;
  while (p < n) {
    const code = html.charCodeAt(p);
    if (code === 0x3e) return { name, attrs: attrs ?? noAttributes, selfClosing, end: p + 1 };
    if (isSpace(code)) {
      p++;
      continue;
    }
    if (code === 0x2f) {
      selfClosing = html.charCodeAt(p + 1) === 0x3e;
      p++;
      continue;
    }
    // An attribute name runs to a space, "/", ">" or "=" (an "=" in first place belongs to the name).
    const nameStart = p++;
    while (p < n) {
      const c = html.charCodeAt(p);
      if (isSpace(c) || c === 0x2f || c === 0x3e || c === 0x3d) break;
      p++;
    }
    const nameEnd = p;
    while (p < n && isSpace(html.charCodeAt(p))) p++;
    let valueStart = p;
    let valueEnd = p;
    if (html.charCodeAt(p) === 0x3d) {
      p++;
      while (p < n && isSpace(html.charCodeAt(p))) p++;
      const quote = html.charCodeAt(p);
      if (quote === 0x22 || quote === 0x27) {
        const close = html.indexOf(quote === 0x22 ? '"' : "'", p + 1);
        if (close < 0) return null;
        valueStart = p + 1;
        valueEnd = close;
        p = close + 1;
      } else {
        valueStart = p;
        while (p < n) {
          const c = html.charCodeAt(p);
          if (isSpace(c) || c === 0x3e) break;
          p++;
        }
        valueEnd = p;
      }
    }
    if (nameEnd - nameStart <= MAX_NAME && (attrs?.size ?? 0) < MAX_ATTRIBUTES) {
      const attrName = html.slice(nameStart, nameEnd).toLowerCase();
      attrs ??= new Map();
      if (!attrs.has(attrName)) attrs.set(attrName, html.slice(valueStart, valueEnd));
    }
  }
  return null;
}

/** Index of the "</name" that ends a raw-text element whose content starts at `from`, or the input's end. */
function rawTextEnd(html: string, from: number, name: string): number {
  for (let at = from; ; ) {
    const lt = html.indexOf("</", at);
    if (lt < 0) return html.length;
    if (html.slice(lt + 2, lt + 2 + name.length).toLowerCase() === name) {
      const after = html.charCodeAt(lt + 2 + name.length);
      if (Number.isNaN(after) || isSpace(after) || after === 0x2f || after === 0x3e) return lt;
    }
    at = lt + 2;
  }
}

/** Index just past the comment whose "<!--" is at `lt`. */
function commentEnd(html: string, lt: number): number {
  if (html.charCodeAt(lt + 4) === 0x3e) return lt + 5; // <!-->
  if (html.startsWith("->", lt + 4)) return lt + 6; // <!--->
  const end = html.indexOf("-->", lt + 4);
  return end < 0 ? html.length : end + 3;
}

/** Index just past the next ">" from `from`, or the input's end. */
const pastNext = (html: string, from: number) => {
  const end = html.indexOf(">", from);
  return end < 0 ? html.length : end + 1;
};

/** Tokenizes `html` into `sink`, front to back, once. */
export function scanHtml(html: string, sink: HtmlTokenSink): void {
  const n = html.length;
  let textStart = 0;
  const flushText = (end: number) => {
    if (end > textStart) sink.text(html.slice(textStart, end));
  };
  let i = 0;
  while (i < n && !sink.stopped) {
    const lt = html.indexOf("<", i);
    if (lt < 0) break;
    const next = html.charCodeAt(lt + 1);
    if (isLetter(next)) {
      sink.tick?.();
      flushText(lt);
      const tag = readTag(html, lt + 1);
      if (!tag) {
        textStart = n;
        break;
      }
      textStart = i = tag.end;
      const foreign = sink.foreign;
      sink.startTag(tag.name, tag.attrs, tag.selfClosing);
      if (!foreign && rawTextElements.has(tag.name)) {
        const end = rawTextEnd(html, i, tag.name);
        sink.rawText(tag.name, html.slice(i, end));
        // The end tag itself is then read as one.
        textStart = i = end;
      }
    } else if (next === 0x2f) {
      const after = html.charCodeAt(lt + 2);
      if (Number.isNaN(after)) break; // "</" at the end is text
      sink.tick?.();
      flushText(lt);
      if (isLetter(after)) {
        const tag = readTag(html, lt + 2);
        if (!tag) {
          textStart = n;
          break;
        }
        textStart = i = tag.end;
        sink.endTag(tag.name);
      } else textStart = i = after === 0x3e ? lt + 3 : pastNext(html, lt + 2);
    } else if (next === 0x21) {
      sink.tick?.();
      flushText(lt);
      if (html.startsWith("<!--", lt)) textStart = i = commentEnd(html, lt);
      else if (sink.foreign && html.startsWith("<![CDATA[", lt)) {
        const end = html.indexOf("]]>", lt + 9);
        sink.rawText("#cdata", html.slice(lt + 9, end < 0 ? n : end));
        textStart = i = end < 0 ? n : end + 3;
      } else textStart = i = pastNext(html, lt + 2); // doctype, or a bogus comment (CDATA outside svg/math)
    } else if (next === 0x3f) {
      sink.tick?.();
      flushText(lt);
      textStart = i = pastNext(html, lt + 2);
    } else i = lt + 1; // a "<" that opens nothing is text
  }
  if (!sink.stopped) flushText(n);
}
