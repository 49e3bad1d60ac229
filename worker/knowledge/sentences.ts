import { estimateTokens, sliceByTokens } from "./tokens";

/** A piece of running text and what joined it to the previous piece (" " or "\n"). */
export interface Piece {
  text: string;
  joiner: string;
}

/** Words that end with a period without ending a sentence (English and French titles and references). */
const abbreviations = new Set(
  ["mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "vs", "no", "nr", "fig", "cf", "m", "mme", "mlle", "me", "mm", "p", "pp", "vol", "art"],
);

/**
 * A sentence ends after `.`, `!`, `?`, `…` (then closing quotes or brackets) followed by
 * whitespace, after CJK `。！？` and Arabic `؟ ۔` with or without a space, and at a line break.
 * A period does not end a sentence when the next word starts in lower case ("e.g. this") or
 * follows a known abbreviation or a single letter ("Dr. Martin", "J. Smith").
 *
 * Scanned by hand, once over the text: the regex this replaces (`[.!?…]+["'…]*[^\S\n]+|…`)
 * rescanned a run of dots from each of its positions (160,000 dots took 31 s).
 */
const isSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
/** Whitespace other than a line feed. */
const isBlank = (code: number) => code !== 0x0a && isSpace(code);
const isEnd = (code: number) => code === 0x2e || code === 0x21 || code === 0x3f || code === 0x2026; // . ! ? …
const isCloser = (code: number) => code === 0x22 || code === 0x27 || code === 0x201d || code === 0x2019 || code === 0xbb || code === 0x29 || code === 0x5d; // " ' ” ’ » ) ]
const isCjkEnd = (code: number) => code === 0x3002 || code === 0xff01 || code === 0xff1f; // 。！？
const isCjkCloser = (code: number) => code === 0x300d || code === 0x300f || code === 0x201d || code === 0x2019 || code === 0x29; // 」』”’)
const isArabicEnd = (code: number) => code === 0x061f || code === 0x06d4; // ؟ ۔

/** One boundary: the text from `index` to `end`; `latin` when it is `.!?…` (+ closers) + blanks, `newline` at a line break. */
interface Boundary {
  index: number;
  end: number;
  latin: boolean;
  newline: boolean;
}

/** The next boundary at or after `from`, or null: every character is looked at a bounded number of times. */
function nextBoundary(text: string, from: number): Boundary | null {
  const n = text.length;
  const skip = (at: number, test: (code: number) => boolean) => {
    while (at < n && test(text.charCodeAt(at))) at++;
    return at;
  };
  let i = from;
  while (i < n) {
    const code = text.charCodeAt(i);
    if (isEnd(code)) {
      const closed = skip(skip(i, isEnd), isCloser);
      const end = skip(closed, isBlank);
      if (end > closed) return { index: i, end, latin: true, newline: false };
      // No blank after the run: no position inside it can end a sentence either.
      i = closed;
    } else if (isCjkEnd(code)) {
      return { index: i, end: skip(skip(skip(i, isCjkEnd), isCjkCloser), isBlank), latin: false, newline: false };
    } else if (isArabicEnd(code)) {
      return { index: i, end: skip(skip(i, isArabicEnd), isBlank), latin: false, newline: false };
    } else if (isSpace(code)) {
      const blanks = skip(i, isBlank);
      if (blanks < n && text.charCodeAt(blanks) === 0x0a) return { index: i, end: skip(blanks, isSpace), latin: false, newline: true };
      // Blanks not followed by a line break: none of them starts a boundary.
      i = blanks;
    } else i++;
  }
  return null;
}

export function splitSentences(text: string): Piece[] {
  return [...eachSentence(text)];
}

/**
 * `splitSentences` one piece at a time: a paragraph of a million short sentences is never held
 * as a million pieces (the chunker consumes them as they come).
 */
export function* eachSentence(text: string): Generator<Piece> {
  let start = 0;
  let joiner = "";
  let first = true;
  for (let m = nextBoundary(text, 0); m; m = nextBoundary(text, m.end)) {
    const end = m.end;
    if (m.latin) {
      const next = text[end];
      if (next !== undefined && /\p{Ll}/u.test(next)) continue;
      if (text.charCodeAt(m.index) === 0x2e) {
        const word = /([\p{L}]+)$/u.exec(text.slice(Math.max(start, m.index - 12), m.index))?.[1] ?? "";
        if (word.length === 1 || abbreviations.has(word.toLowerCase())) continue;
      }
    }
    const sentence = text.slice(start, end).trim();
    if (sentence) {
      yield { text: sentence, joiner: first ? "" : joiner };
      first = false;
    }
    joiner = m.newline ? "\n" : " ";
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) yield { text: rest, joiner: first ? "" : joiner };
}

/**
 * Splits text that exceeds `budget` into pieces of at most `budget` estimated tokens, at word
 * boundaries; a single word longer than the budget (CJK runs, URLs, base64) is cut by characters.
 */
export function splitLong(text: string, budget: number, joiner = " "): Piece[] {
  const out: Piece[] = [];
  let current = "";
  let tokens = 0;
  const push = (piece: string) => {
    const trimmed = piece.trim();
    if (trimmed) out.push({ text: trimmed, joiner: out.length ? joiner : "" });
  };
  // Words are matched one at a time: `split` would hold every word of a 4 MB paragraph at once.
  // Only the word is matched (`(\s*)(\S+)` rescanned a trailing run of blanks from each position).
  const words = /\S+/g;
  let previousEnd = 0;
  for (let m = words.exec(text); m; m = words.exec(text)) {
    const word = m[0];
    const space = text.slice(previousEnd, m.index);
    previousEnd = m.index + word.length;
    const wordTokens = estimateTokens(word);
    if (wordTokens > budget) {
      push(current);
      current = "";
      tokens = 0;
      for (let at = 0; at < word.length; ) {
        const end = sliceByTokens(word, at, budget);
        push(word.slice(at, end));
        at = end;
      }
      continue;
    }
    if (tokens + wordTokens > budget && current) {
      push(current);
      current = word;
      tokens = wordTokens;
    } else {
      current += (current ? space : "") + word;
      tokens += wordTokens + (current === word ? 0 : 1);
    }
  }
  push(current);
  return out;
}
