/** The integration snippet (spec section 7): the masked key inside it is replaced by the full key when known. */

/** Every occurrence of `maskedKey` in `snippet` becomes `fullKey`; unchanged without both keys. */
export function snippetWithFullKey(snippet: string, maskedKey: string | null | undefined, fullKey: string | null | undefined): string {
  if (!maskedKey || !fullKey || maskedKey === fullKey) return snippet;
  return snippet.split(maskedKey).join(fullKey);
}

const attribute = (snippet: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(snippet)?.[1] ?? null;

/**
 * The npm and React usage of the same widget (widget-sdk/README.md), with the key and the host the
 * snippet carries, so all three say the same thing; null when the snippet has neither.
 */
export function packageSamples(snippet: string): { npm: string; react: string } | null {
  const key = attribute(snippet, "data-assistant-key");
  const host = attribute(snippet, "data-host");
  if (!key || !host) return null;
  return {
    npm: [
      "npm install @tala/widget",
      "",
      'import { init, open } from "@tala/widget";',
      "",
      `init({ apiKey: "${key}", host: "${host}" });`,
    ].join("\n"),
    react: ['import { TalaWidget } from "@tala/widget/react";', "", `<TalaWidget apiKey="${key}" host="${host}" />`].join("\n"),
  };
}
