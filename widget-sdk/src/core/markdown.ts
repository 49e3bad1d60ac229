/**
 * A tiny, safe markdown renderer for the answers (DESIGN: markdown from a model is sanitised before
 * it reaches the DOM). It never produces HTML: text is parsed straight into Preact VNodes whose
 * strings become text nodes, so `<script>`, `<img onerror>` and entities stay literal text.
 * Supported: paragraphs (single newlines kept as line breaks), **bold**, *italic*, `code`, fenced
 * code blocks, bullet and numbered lists, > quotes, # headings (shown bold), [links](url) and bare
 * URLs; links only for http, https and mailto, in a new tab with rel="noopener noreferrer nofollow".
 */
import { h, type ComponentChildren, type VNode } from "preact";

/**
 * The link's normalised address when it is absolute (or relative to `base`, when given) and http or
 * https (or mailto, unless `web`); null otherwise: never a live javascript:, data: or relative address.
 */
export function safeHref(raw: string, web?: boolean, base?: string): string | null {
  try {
    // An empty base (the dashboard's Playground has no host of its own) is no base: "" would throw.
    const url = new URL(raw.trim(), base || undefined);
    return (web ? /^https?:$/ : /^(https?|mailto):$/).test(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

// `code` | **bold** / __bold__ | *italic* / _italic_ | [text](url) | bare URL
const INLINE =
  /`([^`\n]+)`|(\*\*|__)(?=\S)([\s\S]*?\S)\2|(\*|\b_)(?=[^\s*_])([\s\S]*?[^\s*_])\4(?!\w)|\[([^\]\n]+)\]\(([^()\s]+)\)|\b(?:https?:\/\/|mailto:)[^\s<>"]*[^\s<>".,:;!?')\]]/g;

export const link = (href: string, children: ComponentChildren) => h("a", { href, target: "_blank", rel: "noopener noreferrer nofollow" }, children);

/** Inline markdown → text and elements. `inLink` keeps links out of a link's own words. */
export function inline(text: string, inLink?: boolean): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  const plain = (s: string) => s.split("\n").forEach((p, i) => (i && out.push(h("br", null)), p && out.push(p)));
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    plain(text.slice(last, m.index));
    last = m.index! + m[0].length;
    const href = m[6] ? safeHref(m[7]!) : !m[1] && !m[2] && !m[4] && safeHref(m[0]);
    out.push(
      m[1]
        ? h("code", null, m[1])
        : m[2]
          ? h("strong", null, inline(m[3]!, inLink))
          : m[4]
            ? h("em", null, inline(m[5]!, inLink))
            : m[6]
              ? // An unsafe link keeps only its words: never a live javascript: or data: address.
                href && !inLink
                ? link(href, inline(m[6], true))
                : inline(m[6], inLink)
              : href && !inLink
                ? link(href, m[0])
                : m[0],
    );
  }
  plain(text.slice(last));
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ITEM = /^ {0,3}(?:[-*+]|(\d{1,9})[.)])\s+(.*)/;
const QUOTE = /^ {0,3}> ?(.*)/;
const HEADING = /^ {0,3}#{1,6}\s+(.*?)[\s#]*$/;
const startsBlock = (line = "") => [FENCE, ITEM, QUOTE, HEADING].some((r) => r.test(line));

/** Markdown → VNodes, for `<div class="md">{renderMarkdown(text)}</div>`. */
export function renderMarkdown(source: string): VNode[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: VNode[] = [];
  let i = 0;
  let m: RegExpExecArray | null;
  while (i < lines.length) {
    const line = lines[i]!;
    if ((m = FENCE.exec(line))) {
      const body: string[] = [];
      while (++i < lines.length && !lines[i]!.trim().startsWith(m[1]!)) body.push(lines[i]!);
      i++; // the closing fence (or the end, while an answer still streams)
      blocks.push(h("pre", null, h("code", null, body.join("\n"))));
    } else if (!line.trim()) i++;
    else if ((m = HEADING.exec(line))) {
      blocks.push(h("p", null, h("strong", null, inline(m[1]!))));
      i++;
    } else if (QUOTE.test(line)) {
      const body: string[] = [];
      while ((m = QUOTE.exec(lines[i] ?? ""))) {
        body.push(m[1]!);
        i++;
      }
      blocks.push(h("blockquote", null, renderMarkdown(body.join("\n"))));
    } else if ((m = ITEM.exec(line))) {
      const ordered = !!m[1];
      const start = Number(m[1] || 1);
      const items: VNode[] = [];
      while ((m = ITEM.exec(lines[i] ?? "")) && !!m[1] === ordered) {
        let text = m[2]!;
        // Continuation lines: plain text that starts no other block.
        while (++i < lines.length && lines[i]!.trim() && !startsBlock(lines[i])) text += `\n${lines[i]!.trim()}`;
        items.push(h("li", null, inline(text)));
      }
      blocks.push(h(ordered ? "ol" : "ul", ordered && start !== 1 ? { start } : {}, items) as VNode);
    } else {
      let text = line;
      while (++i < lines.length && lines[i]!.trim() && !startsBlock(lines[i])) text += `\n${lines[i]}`;
      blocks.push(h("p", null, inline(text)));
    }
  }
  return blocks;
}
