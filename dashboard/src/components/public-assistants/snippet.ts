/** The integration snippet (spec section 7): the masked key inside it is replaced by the full key when known. */

/** Every occurrence of `maskedKey` in `snippet` becomes `fullKey`; unchanged without both keys. */
export function snippetWithFullKey(snippet: string, maskedKey: string | null | undefined, fullKey: string | null | undefined): string {
  if (!maskedKey || !fullKey || maskedKey === fullKey) return snippet;
  return snippet.split(maskedKey).join(fullKey);
}
