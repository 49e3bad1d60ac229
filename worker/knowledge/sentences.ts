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
 */
const sentenceBoundary = /([.!?…]+["'”’»)\]]*)([^\S\n]+)|([。！？]+[」』”’)]*)[^\S\n]*|([؟۔]+)[^\S\n]*|([^\S\n]*\n\s*)/g;

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
  const boundary = new RegExp(sentenceBoundary.source, "g");
  for (let m = boundary.exec(text); m; m = boundary.exec(text)) {
    const end = m.index + m[0].length;
    if (m[1] !== undefined) {
      const next = text[end];
      if (next !== undefined && /\p{Ll}/u.test(next)) continue;
      if (m[1][0] === ".") {
        const word = /([\p{L}]+)$/u.exec(text.slice(Math.max(start, m.index - 12), m.index))?.[1] ?? "";
        if (word.length === 1 || abbreviations.has(word.toLowerCase())) continue;
      }
    }
    const sentence = text.slice(start, end).trim();
    if (sentence) {
      yield { text: sentence, joiner: first ? "" : joiner };
      first = false;
    }
    joiner = m[5] !== undefined ? "\n" : " ";
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
  const words = /(\s*)(\S+)/g;
  for (let m = words.exec(text); m; m = words.exec(text)) {
    const word = m[2]!;
    const space = m[1]!;
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
