import { insightsLimits, type InsightQuestion } from "../../contract";
import { normaliseQuestion, withinOneEdit } from "./qa-match";

/**
 * How a visitor's question is counted in the insights (pure; unit-tested beside it). Two steps:
 *
 * - When counted (`countedQuestion`), one key for the same words whatever their case, accents,
 *   punctuation, spacing or order: the question's words, normalised as the curated answers' are
 *   (qa-match.ts `normaliseQuestion`), sorted.
 * - When listed (`groupQuestions`), rows whose keys differ by a small typo join the most asked of
 *   them. Rows counted under an older key shape are re-keyed here too, so old and new rows group.
 *
 * Works on bounded heads of texts and a bounded number of rows, so a long message or a busy
 * assistant costs no more than a small one.
 */

export interface CountedQuestion {
  /** The key it is counted under (`questionKey`), at most `max` characters. */
  normalized: string;
  /** How the visitor wrote it (spaces collapsed, at most `max` characters): shown to the owner. */
  wording: string;
}

/** Cuts at `max` UTF-16 units without leaving half a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const last = head.charCodeAt(head.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? head.slice(0, -1) : head;
}

/**
 * A question's key: NFKC, then its words as the curated answers normalise them (lower case, no
 * accents or punctuation), sorted, one space between. Idempotent: the key of a key is itself, so a
 * stored key of any older shape can be re-keyed on read.
 */
export function questionKey(text: string, max: number = insightsLimits.maxQuestionChars): string {
  // Normalising only ever shortens or keeps a text within a few times its length: 4 × max is plenty.
  const words = normaliseQuestion(cut(text, max * 4).normalize("NFKC")).split(" ").filter(Boolean);
  words.sort();
  const key = cut(words.join(" "), max);
  return key.endsWith(" ") ? key.trimEnd() : key;
}

/** The question of a visitor message, or null when nothing is left to count (only spaces, punctuation or emoji). */
export function countedQuestion(text: string, max: number = insightsLimits.maxQuestionChars): CountedQuestion | null {
  const normalized = questionKey(text, max);
  if (!normalized) return null;
  const wording = cut(cut(text, max * 4).replace(/\s+/g, " ").trim(), max).trim();
  return { normalized, wording: wording || normalized };
}

/** Words shorter than this must match exactly: a one-letter change turns "ship" into "shop", "red" into "bed". */
const TYPO_MIN_LENGTH = 5;
/** At most this many words of a question may carry a typo (and never all of a short question's). */
const MAX_TYPO_WORDS = 2;

/**
 * A shorter word may still carry one slip: a letter typed twice ("shipp" for "ship"), from this
 * length on ("to"/"too" and "of"/"off" are different words, so shorter words never do).
 */
const DOUBLED_MIN_LENGTH = 4;

/** `long` is `short` with one of its letters typed twice. */
function doubledLetter(short: string, long: string): boolean {
  if (long.length !== short.length + 1) return false;
  for (let i = 1; i < long.length; i++) {
    if (long[i] === long[i - 1] && long.slice(0, i) + long.slice(i + 1) === short) return true;
  }
  return false;
}

/**
 * Two different words that are one typo apart, no digits: in words long enough, an insertion,
 * deletion, substitution or swap of neighbours; in shorter ones (from 4 letters), a doubled letter.
 */
function typoOf(a: string, b: string): boolean {
  if (/\p{N}/u.test(a) || /\p{N}/u.test(b)) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= TYPO_MIN_LENGTH) return withinOneEdit(a, b);
  return short.length >= DOUBLED_MIN_LENGTH && doubledLetter(short, long);
}

/**
 * Whether two keys (sorted words) are the same question but for small typos: the same number of
 * words, all equal but at most `MAX_TYPO_WORDS` (and fewer than half of them), each of those one
 * typo from a word of the other.
 */
export function nearSameQuestion(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  const rest = [...b];
  const unmatched: string[] = [];
  for (const word of a) {
    const at = rest.indexOf(word);
    if (at >= 0) rest.splice(at, 1);
    else unmatched.push(word);
  }
  if (unmatched.length === 0) return true;
  if (unmatched.length > MAX_TYPO_WORDS || unmatched.length * 2 > a.length) return false;
  // One or two words each side: try both pairings.
  if (unmatched.length === 1) return typoOf(unmatched[0]!, rest[0]!);
  const [x, y] = unmatched as [string, string];
  const [p, q] = rest as [string, string];
  return (typoOf(x, p) && typoOf(y, q)) || (typoOf(x, q) && typoOf(y, p));
}

/** A counted question's row in a period, as the store reads it. */
export interface QuestionRow {
  /** Its stored key (any shape it was counted under). */
  key: string;
  wording: string;
  count: number;
  lastAskedAt: number;
  /** Newest first. */
  sessionIds: readonly string[];
}

/**
 * The rows (most asked first) as the owner's list: rows with the same key once re-keyed, or a
 * small typo apart from a group's first (most asked) row, count as one question, shown in that
 * row's wording, with the conversations of its most recently asked rows first. Most asked first,
 * at most `max`. Compares each row with the groups of its word count only (at most rows² / 2
 * comparisons of short word lists: the caller bounds the rows).
 */
export function groupQuestions(rows: readonly QuestionRow[], max: number = insightsLimits.maxListed, sessionsPer = insightsLimits.sessionsPerQuestion): InsightQuestion[] {
  interface Group {
    words: string[];
    wording: string;
    count: number;
    lastAskedAt: number;
    members: QuestionRow[];
  }
  const byKey = new Map<string, Group>();
  const byLength = new Map<number, Group[]>();
  const groups: Group[] = [];
  for (const row of rows) {
    const key = questionKey(row.key);
    const words = key ? key.split(" ") : [];
    let group = byKey.get(key);
    if (!group) group = byLength.get(words.length)?.find((g) => nearSameQuestion(g.words, words));
    if (!group) {
      group = { words, wording: row.wording, count: 0, lastAskedAt: 0, members: [] };
      groups.push(group);
      byLength.set(words.length, [...(byLength.get(words.length) ?? []), group]);
    }
    byKey.set(key, group);
    group.count += row.count;
    group.lastAskedAt = Math.max(group.lastAskedAt, row.lastAskedAt);
    group.members.push(row);
  }
  return groups
    .sort((a, b) => b.count - a.count || b.lastAskedAt - a.lastAskedAt)
    .slice(0, max)
    .map((g) => {
      const sessions = new Set<string>();
      for (const m of [...g.members].sort((a, b) => b.lastAskedAt - a.lastAskedAt)) for (const id of m.sessionIds) sessions.add(id);
      return { question: g.wording, count: g.count, lastAskedAt: g.lastAskedAt, sessionIds: [...sessions].slice(0, sessionsPer) };
    });
}

/** `sessionId` first, then the others without it, at most `max`: the newest conversations where a question was asked. */
export function withSession(sessionIds: readonly string[], sessionId: string, max: number = insightsLimits.sessionsPerQuestion): string[] {
  return [sessionId, ...sessionIds.filter((id) => id !== sessionId)].slice(0, max);
}

/** A stored JSON list of session ids, read defensively (anything else is an empty list). */
export function sessionIdList(json: unknown): string[] {
  if (typeof json !== "string") return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
