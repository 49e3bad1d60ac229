/**
 * A model's markdown as HTML, before sanitising (DESIGN.md: "Markdown from a model is sanitised
 * before it reaches any DOM": `sanitizeHtml` in markdown-dom.ts runs DOMPurify on this output, and
 * only that result is ever put into the page). This part needs no DOM, so it is unit-tested.
 *
 * The renderer is already strict, so DOMPurify is a second wall, not the only one:
 * - raw HTML in the text (blocks and inline tags) is shown as text, never as markup: a model that
 *   writes `<div>` in prose means the characters;
 * - links keep only http(s), mailto and in-page targets; anything else (javascript:, data:) is
 *   rendered as its text alone;
 * - images become links: a model's reply must not make the browser fetch an address by itself (a
 *   prompt-injected image URL would leak the conversation in its query string);
 * - fenced code blocks get a header with the language and a Copy button (`data-copy-code`), which
 *   the message component handles by event delegation.
 */
import { Marked, type Tokens } from "marked";
import { chatUi } from "../../../../contract";

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** True for the link targets a reply may carry: http(s), mailto, and in-page (#…) ones. */
export function isSafeHref(href: string): boolean {
  const value = href.trim();
  if (value.startsWith("#")) return true;
  // Browsers ignore tabs, newlines and leading control characters inside a scheme ("java\tscript:").
  const compact = Array.from(value)
    .filter((ch) => ch.charCodeAt(0) > 0x20 && ch.charCodeAt(0) !== 0x7f)
    .join("")
    .toLowerCase();
  return /^(https?:|mailto:)/.test(compact);
}

/** The language name of a fence info string, reduced to safe characters ('' when none). */
export function codeLanguage(lang: string | undefined): string {
  return (lang ?? "").trim().split(/\s+/)[0]!.replace(/[^\w+#.-]/g, "").slice(0, 30);
}

const markdown = new Marked({ gfm: true, breaks: true, async: false });
markdown.use({
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    code({ text, lang }: Tokens.Code) {
      const language = codeLanguage(lang);
      const label = language ? `<span class="code-lang">${escapeHtml(language)}</span>` : "<span></span>";
      const code = text.replace(/\n$/, "");
      return (
        `<div class="code-block">` +
        `<div class="code-head">${label}` +
        `<button type="button" class="code-copy" data-copy-code="" aria-label="${escapeHtml(chatUi.copyCode)}">${escapeHtml(chatUi.copy)}</button>` +
        `</div>` +
        `<pre><code${language ? ` class="language-${escapeHtml(language)}"` : ""}>${escapeHtml(code)}</code></pre>` +
        `</div>\n`
      );
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      if (!isSafeHref(href)) return inner;
      const titleAttr = title ? ` title="${escapeHtml(title)}"` : "";
      return `<a href="${escapeHtml(href)}"${titleAttr}>${inner}</a>`;
    },
    image({ href, text }: Tokens.Image) {
      const label = escapeHtml(text || href);
      return isSafeHref(href) && !href.trim().startsWith("#") ? `<a href="${escapeHtml(href)}">${label}</a>` : label;
    },
  },
});

/** The reply's markdown as HTML (not yet sanitised: see sanitizeHtml in markdown-dom.ts). */
export function renderMarkdown(text: string): string {
  return markdown.parse(text) as string;
}
