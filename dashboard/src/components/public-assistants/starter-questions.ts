/**
 * The Settings form's starter questions (pure, unit-tested): what the widget would show for the
 * typed values, and the suggestions from the assistant's top questions. The server's schema
 * (contract starterQuestionsSchema) is the rule; these only mirror it for the preview.
 */
import { starterQuestionLimits as SQ } from "../../../../contract";

/** The typed questions as the server keeps them: trimmed, empty ones dropped, each once (any case), at most `maxQuestions`. */
export function cleanStarterQuestions(list: readonly string[]): string[] {
  const seen = new Set<string>();
  return list
    .map((q) => q.trim())
    .filter((q) => q.length > 0 && !seen.has(q.toLowerCase()) && seen.add(q.toLowerCase()))
    .slice(0, SQ.maxQuestions);
}

/** A question cut to `maxChars`, at a word's end when there is one: a chip never shows half a word. */
export function fitStarterQuestion(question: string): string {
  const text = question.replace(/\s+/g, " ").trim();
  if (text.length <= SQ.maxChars) return text;
  const head = text.slice(0, SQ.maxChars);
  const atWord = head.replace(/\s+\S*$/, "");
  return (atWord.length >= SQ.maxChars / 2 ? atWord : head).trim();
}

/**
 * `current` with its empty slots filled, then new slots up to `maxQuestions`, from `top` (most
 * asked first), each fitted to `maxChars`, skipping those already there (any case). Returns the
 * new list and how many were added.
 */
export function suggestStarterQuestions(current: readonly string[], top: readonly string[]): { questions: string[]; added: number } {
  const taken = new Set(current.map((q) => q.trim().toLowerCase()).filter(Boolean));
  const candidates: string[] = [];
  for (const raw of top) {
    const q = fitStarterQuestion(raw);
    if (q && !taken.has(q.toLowerCase())) {
      taken.add(q.toLowerCase());
      candidates.push(q);
    }
  }
  let added = 0;
  const questions = current.map((q) => (q.trim() || !candidates.length ? q : (added++, candidates.shift()!)));
  while (questions.length < SQ.maxQuestions && candidates.length) {
    questions.push(candidates.shift()!);
    added++;
  }
  return { questions, added };
}
