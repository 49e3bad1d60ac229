/**
 * Token estimates without a tokenizer (nothing to download, same answer in every runtime).
 *
 * Weights per UTF-16 code unit, chosen to slightly over-count for the tokenizers Tala embeds and
 * prompts with (bge-m3's XLM-R SentencePiece, OpenAI's cl100k/o200k), so a chunk counted at 512
 * stays within a 512-token window:
 * - ASCII: 1/4 (English averages ~4 characters per token);
 * - Latin-1 and Latin Extended letters (é, ß, ł…): 1/3, accents often split a word's tokens;
 * - Han, kana, Hangul, full-width forms: 1 each (≈1 token per character, often less);
 * - surrogate pairs (emoji, rare CJK): 1 per pair;
 * - every other script (Arabic, Hebrew, Cyrillic, Greek, Devanagari, Thai…): 1/2 (≈2 characters per token).
 */
export function charWeight(code: number): number {
  if (code < 0x80) return 0.25;
  if (code < 0x250) return 1 / 3;
  if (code >= 0xdc00 && code <= 0xdfff) return 0; // low surrogate: its pair was counted
  if (code >= 0xd800 && code <= 0xdbff) return 1;
  if (
    (code >= 0x2e80 && code <= 0x9fff) || // CJK radicals, kana, CJK unified ideographs
    (code >= 0xac00 && code <= 0xd7af) || // Hangul syllables
    (code >= 0xf900 && code <= 0xfaff) || // CJK compatibility ideographs
    (code >= 0xff00 && code <= 0xffef) // full-width forms
  ) {
    return 1;
  }
  return 0.5;
}

/** Estimated tokens of `text` (see `charWeight`); 0 for the empty string. */
export function estimateTokens(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += charWeight(text.charCodeAt(i));
  return Math.ceil(sum);
}

/**
 * The end index of the longest prefix of `text` from `start` whose estimate fits `budget`
 * (at least one character, never splitting a surrogate pair).
 */
export function sliceByTokens(text: string, start: number, budget: number): number {
  let sum = 0;
  let i = start;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const width = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
    sum += charWeight(code);
    if (sum > budget && i > start) break;
    i += width;
  }
  return i;
}
