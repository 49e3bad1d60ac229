import { Marked, type Tokens } from "marked";
import { slugify } from "./html";

/**
 * Markdown → HTML for posts and pages. Headings get ids (so /faq#some-question links work) and an
 * h1 in the body is refused: the page template owns the one h1.
 */
export function renderMarkdown(markdown: string, source: string): string {
  const seen = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { tokens, depth, text }: Tokens.Heading) {
        if (depth === 1) throw new Error(`${source}: use ## and below in Markdown; the page title is the h1`);
        const base = slugify(text) || "section";
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        const id = n ? `${base}-${n + 1}` : base;
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  return marked.parse(markdown, { async: false });
}

/** Replaces {{name}} with values (numbers from the contract, so policies never drift from the code). */
export function fillPlaceholders(text: string, values: Record<string, string | number>, source: string): string {
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`${source}: unknown placeholder {{${name}}}`);
    return String(values[name]);
  });
}

/** Minutes to read, at ~220 words a minute, at least 1. */
export function readingMinutes(markdown: string): number {
  const words = markdown.replace(/[#>*_`[\]()-]/g, " ").split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.round(words / 220));
}
