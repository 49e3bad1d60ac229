import { esc, formatDate, slugify } from "../html";

/** A Markdown page of marketing/content/pages: FAQ, privacy policy, terms. */
export interface DocumentPage {
  /** File name without .md; also the route (/faq, /privacy-policy, /terms). */
  name: string;
  title: string;
  description: string;
  /** YYYY-MM-DD of the last change to the text. */
  updated: string;
  markdown: string;
}

/** Title, last update, a table of contents of the ## sections, then the text. */
export function documentMain(page: DocumentPage, html: string): string {
  const sections = [...page.markdown.matchAll(/^## +(.+?)\s*$/gm)].map((m) => m[1]!);
  const toc = sections.length > 2
    ? `<nav class="toc" aria-labelledby="toc-title"><strong id="toc-title">On this page</strong><ul>${sections
        .map((s) => `<li><a href="#${slugify(s)}">${esc(s)}</a></li>`)
        .join("")}</ul></nav>`
    : "";
  return `<div class="wrap narrow">
<header class="page-head doc"><h1>${esc(page.title)}</h1>
<p>${esc(page.description)}</p>
<p class="meta">Last updated <time datetime="${page.updated}">${esc(formatDate(page.updated, "en"))}</time></p></header>
${toc}
<div class="prose">
${html}
</div>
</div>`;
}
