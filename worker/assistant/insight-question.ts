import { insightsLimits } from "../../contract";

/**
 * How a visitor's question is counted in the insights (pure; unit-tested beside it): the same
 * question asked in other words of case, spacing or end punctuation counts as one. Works on a
 * bounded head of the text, so a long message costs no more than a short one.
 */

export interface CountedQuestion {
  /** The key it is counted under: NFKC, lower-case, spaces collapsed, punctuation and symbols trimmed at both ends, at most `max` characters. */
  normalized: string;
  /** How the visitor wrote it (spaces collapsed, at most `max` characters): shown to the owner. */
  wording: string;
}

const EDGES = /^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu;

/** Cuts at `max` UTF-16 units without leaving half a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const last = head.charCodeAt(head.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? head.slice(0, -1) : head;
}

/** The question of a visitor message, or null when nothing is left to count (only spaces, punctuation or emoji). */
export function countedQuestion(text: string, max: number = insightsLimits.maxQuestionChars): CountedQuestion | null {
  // Collapsing spaces and NFKC only ever shorten or keep a text within a few times its length: 4 × max is plenty.
  const head = cut(text, max * 4);
  const wording = cut(head.replace(/\s+/g, " ").trim(), max).trim();
  const collapsed = head.normalize("NFKC").toLowerCase().replace(/\s+/g, " ");
  const normalized = cut(collapsed.replace(EDGES, ""), max).replace(EDGES, "");
  if (!normalized) return null;
  return { normalized, wording: wording || normalized };
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
