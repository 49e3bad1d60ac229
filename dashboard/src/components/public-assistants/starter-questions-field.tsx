/**
 * The Settings form's starter questions: up to `maxQuestions` fields (add, edit, remove), each with
 * its character count and the contract's message when too long, and "Suggest from your top
 * questions", which fills empty slots from the assistant's Insights (editing an assistant only).
 */
import { useEffect, useId, useRef, useState } from "react";
import { insightsLimits, publicAssistantUi, qaMessages, starterQuestionLimits as SQ } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { getInsights } from "../../lib/public-assistants-api";
import { toast } from "../../stores/toast";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { CloseIcon, PlusIcon } from "../ui/icons";
import { suggestStarterQuestions } from "./starter-questions";

const L = publicAssistantUi.form;
/** The longest period the insights offer: the questions asked most over it. */
const SUGGEST_DAYS = insightsLimits.periods[insightsLimits.periods.length - 1]!;

export function StarterQuestionsField({
  assistantId,
  value,
  onChange,
  error,
}: {
  /** Null while creating: there are no insights to suggest from yet. */
  assistantId: string | null;
  value: string[];
  onChange: (questions: string[]) => void;
  /** The server's message for the list (too many, not a list, one too long). */
  error?: string;
}) {
  const legendId = useId();
  const hintId = useId();
  const [suggesting, setSuggesting] = useState(false);
  const box = useRef<HTMLFieldSetElement>(null);
  const focusNext = useRef<number | null>(null);
  // One field even when there are none: a blank field is dropped on save.
  const rows = value.length ? value : [""];
  const full = rows.length >= SQ.maxQuestions;

  useEffect(() => {
    // After an add or a remove: the new field, or the one now in the removed one's place (else "Add").
    if (focusNext.current === null) return;
    const fields = box.current?.querySelectorAll<HTMLInputElement>("input");
    (fields?.[focusNext.current] ?? box.current?.querySelector<HTMLButtonElement>("[data-add]"))?.focus();
    focusNext.current = null;
  });

  const edit = (index: number, text: string) => onChange(rows.map((q, i) => (i === index ? text : q)));
  const add = () => {
    focusNext.current = rows.length;
    onChange([...rows, ""]);
  };
  const remove = (index: number) => {
    const next = rows.filter((_, i) => i !== index);
    focusNext.current = Math.min(index, next.length - 1);
    onChange(next);
  };

  const suggest = async () => {
    if (!assistantId || suggesting) return;
    setSuggesting(true);
    try {
      const insights = await getInsights(assistantId, SUGGEST_DAYS);
      const { questions, added } = suggestStarterQuestions(rows, insights.topQuestions.map((q) => q.question));
      if (added) onChange(questions);
      toast(added ? { variant: "success", description: L.suggestedStarterQuestions(added) } : { description: L.noStarterSuggestions });
    } catch (err) {
      toast({ variant: "destructive", description: errorMessage(err, L.starterSuggestionsFailed) });
    } finally {
      setSuggesting(false);
    }
  };

  return (
    <fieldset ref={box} aria-labelledby={legendId} aria-describedby={hintId} className="space-y-3">
      <div>
        <legend id={legendId} className="text-sm font-medium text-fg">
          {L.starterQuestions}
        </legend>
        <p id={hintId} className="mt-0.5 text-xs text-muted">
          {L.starterQuestionsHint(SQ.maxQuestions)}
        </p>
      </div>
      {rows.map((question, i) => {
        const length = question.trim().length;
        const tooLong = length > SQ.maxChars;
        return (
          <div key={i} className="flex items-start gap-2">
            <TextField
              label={L.starterQuestion(i + 1)}
              name={`starterQuestion${i + 1}`}
              autoComplete="off"
              dir="auto"
              placeholder={i === 0 ? L.starterQuestionPlaceholder : undefined}
              className="min-w-0 flex-1"
              value={question}
              onChange={(e) => edit(i, e.target.value)}
              labelAside={
                <span className={`text-xs tabular-nums ${tooLong ? "font-medium text-danger" : "text-faint"}`}>{L.starterQuestionCount(length, SQ.maxChars)}</span>
              }
              error={tooLong ? qaMessages.starterQuestionTooLong(SQ.maxChars) : undefined}
            />
            <Button
              variant="ghost"
              size="md"
              className="mt-7 w-9 px-0"
              aria-label={L.removeStarterQuestion(i + 1)}
              title={L.removeStarterQuestion(i + 1)}
              disabled={rows.length === 1 && !question}
              onClick={() => remove(i)}
            >
              <CloseIcon size={16} />
            </Button>
          </div>
        );
      })}
      {error && <p className="text-xs font-medium text-danger">{error}</p>}
      <div className="flex flex-wrap items-center gap-2">
        <Button data-add variant="secondary" size="sm" disabled={full} onClick={add}>
          <PlusIcon size={15} /> {L.addStarterQuestion}
        </Button>
        {assistantId && (
          <Button variant="secondary" size="sm" busy={suggesting} disabled={full && rows.every((q) => q.trim())} onClick={() => void suggest()}>
            {L.suggestStarterQuestions}
          </Button>
        )}
        {full && <span className="text-xs text-muted">{qaMessages.tooManyStarterQuestions(SQ.maxQuestions)}</span>}
      </div>
    </fieldset>
  );
}
