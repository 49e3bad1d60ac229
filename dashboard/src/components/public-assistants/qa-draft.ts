/**
 * The curated answer editor's values: what the owner types (a draft), checked with the contract's
 * body schema before it is sent, and the errors (client or server) placed at their field. Pure,
 * unit-tested beside it.
 */
import { qaBody, qaLimits, type QaMode, type QaPair, type VisitorMessage } from "../../../../contract";
import { ApiError } from "../../lib/api";

export interface QaDraft {
  question: string;
  /** One text per variant row, empty rows included (they are dropped when sent). */
  variants: string[];
  answer: string;
  mode: QaMode;
}

/** What "Improve this answer" starts from: the visitor's question and, for a reply, its text. */
export interface QaPrefill {
  question: string;
  answer?: string;
}

/** Errors by field: `question`, `answer`, `mode`, `variants` (the list) and `variants.<row>` (one row). */
export type QaFieldErrors = Record<string, string>;

export function draftFrom(pair: QaPair | null | undefined, prefill?: QaPrefill): QaDraft {
  if (pair) return { question: pair.question, variants: [...pair.variants], answer: pair.answer, mode: pair.mode };
  return {
    question: (prefill?.question ?? "").trim().slice(0, qaLimits.maxQuestionChars),
    variants: [],
    answer: (prefill?.answer ?? "").trim().slice(0, qaLimits.maxAnswerChars),
    mode: qaLimits.defaultMode,
  };
}

/** The body to send, or the errors to show: the contract's own check, so the messages are the server's. */
export function checkDraft(draft: QaDraft): { ok: true; body: ReturnType<typeof qaBody.parse> } | { ok: false; fields: QaFieldErrors } {
  const parsed = qaBody.safeParse(draft);
  if (parsed.success) return { ok: true, body: parsed.data };
  const fields: QaFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join(".") || "question";
    fields[key] ??= issue.message;
  }
  return { ok: false, fields };
}

/**
 * The errors of a refused save, at their field: the server's `fields` as given, and a duplicate
 * question (409, whose message names the existing pair) at the question. Anything else has no
 * field; the caller shows it above the form.
 */
export function serverFieldErrors(err: unknown): QaFieldErrors {
  if (!(err instanceof ApiError)) return {};
  if (err.fields && Object.keys(err.fields).length > 0) return { ...err.fields };
  if (err.status === 409) return { question: err.message };
  return {};
}

/** The visitor's question an answer replied to: the nearest visitor text before it ("" when none). */
export function questionBefore(messages: readonly VisitorMessage[], index: number): string {
  for (let i = index - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user" && m.content.type === "text") return m.content.data;
  }
  return "";
}
