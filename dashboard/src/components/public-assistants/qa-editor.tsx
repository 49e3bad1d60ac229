/**
 * The curated answer editor (a Radix dialog): question, variants (rows added and removed), the
 * answer in Markdown with a counter, and how it is used (exact / guide). New pairs are created,
 * existing ones patched. A refused save keeps everything typed and shows each error at its field
 * (the server's words; a duplicate names the pair that already answers the question).
 */
import { useId, useRef, useState, type FormEvent } from "react";
import { qaLimits, qaUi, type QaPair } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { qaApi } from "../../lib/qa-api";
import { toast } from "../../stores/toast";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { Modal } from "../ui/dialog";
import { inputClasses, TextField } from "../ui/field";
import { PlusIcon, TrashIcon } from "../ui/icons";
import { checkDraft, draftFrom, serverFieldErrors, type QaDraft, type QaFieldErrors, type QaPrefill } from "./qa-draft";

const E = qaUi.editor;

export interface QaEditorProps {
  assistantId: string;
  /** The pair to edit; null or absent adds a new one. */
  pair?: QaPair | null;
  /** Where a new pair starts ("Improve this answer"). */
  prefill?: QaPrefill;
  title?: string;
  onClose: () => void;
  onSaved: (pair: QaPair) => void;
}

/** Rendered while open; mount it afresh for each pair (its draft starts from the props once). */
export function QaEditor({ assistantId, pair, prefill, title, onClose, onSaved }: QaEditorProps) {
  const id = useId();
  const formId = `${id}-form`;
  const [draft, setDraft] = useState<QaDraft>(() => draftFrom(pair, prefill));
  const [fields, setFields] = useState<QaFieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const focusRow = useRef<number | null>(null);
  const form = useRef<HTMLFormElement>(null);
  /** After a refused save, the first field in error takes the focus (and is scrolled into view). */
  const focusFirstError = () => requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const set = <K extends keyof QaDraft>(key: K, value: QaDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setVariant = (i: number, value: string) => setDraft((d) => ({ ...d, variants: d.variants.map((v, j) => (j === i ? value : v)) }));
  const addVariant = () => {
    focusRow.current = draft.variants.length;
    setDraft((d) => ({ ...d, variants: [...d.variants, ""] }));
  };
  const removeVariant = (i: number) => {
    setDraft((d) => ({ ...d, variants: d.variants.filter((_, j) => j !== i) }));
    // Row errors are by position: after a removal they would point at the wrong row.
    setFields((f) => Object.fromEntries(Object.entries(f).filter(([k]) => !k.startsWith("variants"))));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const checked = checkDraft(draft);
    if (!checked.ok) {
      setFields(checked.fields);
      focusFirstError();
      return;
    }
    setFields({});
    setBusy(true);
    try {
      const saved = pair ? await qaApi.update(assistantId, pair.id, checked.body) : await qaApi.create(assistantId, checked.body);
      toast({ title: pair ? E.updated : E.created, variant: "success" });
      onSaved(saved);
      onClose();
    } catch (err) {
      const atFields = serverFieldErrors(err);
      setFields(atFields);
      if (Object.keys(atFields).length === 0) setError(errorMessage(err, E.saveFailed));
      else focusFirstError();
    } finally {
      setBusy(false);
    }
  };

  const answerLength = draft.answer.length;
  const answerOver = answerLength > qaLimits.maxAnswerChars;
  const variantRowError = (i: number) => fields[`variants.${i}`];
  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={title ?? (pair ? E.editTitle : E.addTitle)}
      description={E.description}
      size="lg"
      locked={busy}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {qaUi.cancel}
          </Button>
          <Button type="submit" form={formId} busy={busy}>
            {E.save}
          </Button>
        </>
      }
    >
      <form ref={form} id={formId} noValidate onSubmit={(e) => void submit(e)} className="space-y-5">
        <FormAlert message={error} />
        <TextField
          label={E.question}
          name="question"
          value={draft.question}
          onChange={(e) => set("question", e.target.value)}
          error={fields.question}
          hint={E.questionHint}
          maxLength={qaLimits.maxQuestionChars}
          autoComplete="off"
          className="[&_input]:text-base sm:[&_input]:text-sm"
        />

        <fieldset aria-describedby={`${id}-variants-hint`}>
          <legend className="text-sm font-medium text-fg">{E.variants}</legend>
          <p id={`${id}-variants-hint`} className="mt-0.5 text-xs text-muted">
            {E.variantsHint(qaLimits.maxVariants)}
          </p>
          {draft.variants.length > 0 && (
            <ul className="mt-2 space-y-2">
              {draft.variants.map((value, i) => (
                <li key={i}>
                  <div className="flex items-center gap-2">
                    <label htmlFor={`${id}-variant-${i}`} className="sr-only">
                      {E.variantLabel(i + 1)}
                    </label>
                    <input
                      id={`${id}-variant-${i}`}
                      ref={(el) => {
                        if (el && focusRow.current === i) {
                          focusRow.current = null;
                          el.focus();
                        }
                      }}
                      value={value}
                      onChange={(e) => setVariant(i, e.target.value)}
                      maxLength={qaLimits.maxQuestionChars}
                      autoComplete="off"
                      placeholder={E.variantLabel(i + 1)}
                      aria-invalid={variantRowError(i) ? true : undefined}
                      aria-describedby={variantRowError(i) ? `${id}-variant-${i}-error` : undefined}
                      className={`${inputClasses} text-base sm:text-sm ${variantRowError(i) ? "border-danger" : "border-line-strong"}`}
                    />
                    <Button variant="ghost" size="sm" aria-label={E.removeVariant(i + 1)} onClick={() => removeVariant(i)} className="size-9 shrink-0 px-0 text-muted">
                      <TrashIcon size={15} />
                    </Button>
                  </div>
                  {variantRowError(i) && (
                    <p id={`${id}-variant-${i}-error`} className="mt-1 text-xs font-medium text-danger">
                      {variantRowError(i)}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
          {fields.variants && <p className="mt-1.5 text-xs font-medium text-danger">{fields.variants}</p>}
          <Button variant="secondary" size="sm" className="mt-2" onClick={addVariant} disabled={draft.variants.length >= qaLimits.maxVariants}>
            <PlusIcon size={14} />
            {E.addVariant}
          </Button>
        </fieldset>

        <div>
          <div className="mb-1.5 flex items-baseline justify-between gap-2">
            <label htmlFor={`${id}-answer`} className="text-sm font-medium text-fg">
              {E.answer}
            </label>
            <span id={`${id}-counter`} className={`text-xs tabular-nums ${answerOver ? "font-medium text-danger" : "text-faint"}`} aria-live="polite">
              {E.counter(answerLength, qaLimits.maxAnswerChars)}
            </span>
          </div>
          <textarea
            id={`${id}-answer`}
            name="answer"
            rows={8}
            value={draft.answer}
            onChange={(e) => set("answer", e.target.value)}
            aria-invalid={fields.answer || answerOver ? true : undefined}
            aria-describedby={`${id}-answer-note ${id}-counter`}
            className={`${inputClasses} h-auto min-h-40 resize-y py-2 font-mono text-base leading-relaxed sm:text-sm ${fields.answer || answerOver ? "border-danger" : "border-line-strong"}`}
          />
          <p id={`${id}-answer-note`} className={`mt-1.5 text-xs ${fields.answer ? "font-medium text-danger" : "text-muted"}`}>
            {fields.answer ?? E.answerHint}
          </p>
        </div>

        <fieldset>
          <legend className="mb-2 text-sm font-medium text-fg">{E.mode}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {qaLimits.modes.map((mode) => (
              <label
                key={mode}
                className={`flex cursor-pointer items-start gap-2.5 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${
                  draft.mode === mode ? "border-accent bg-accent-soft/60" : "border-line-strong hover:bg-subtle"
                }`}
              >
                <input
                  type="radio"
                  name={`${id}-mode`}
                  value={mode}
                  checked={draft.mode === mode}
                  onChange={() => set("mode", mode)}
                  aria-labelledby={`${id}-mode-${mode}`}
                  aria-describedby={`${id}-mode-${mode}-help`}
                  className="mt-0.5 accent-accent"
                />
                <span>
                  <span id={`${id}-mode-${mode}`} className="block font-medium text-fg">
                    {qaUi.modes[mode].choice}
                  </span>
                  <span id={`${id}-mode-${mode}-help`} className="mt-0.5 block text-xs text-muted">
                    {qaUi.modes[mode].help}
                  </span>
                </span>
              </label>
            ))}
          </div>
          {fields.mode && <p className="mt-1.5 text-xs font-medium text-danger">{fields.mode}</p>}
        </fieldset>
      </form>
    </Modal>
  );
}

/** What to open the editor on: a pair to edit, or a new one from a prefill. */
export interface QaEditorTarget {
  pair?: QaPair | null;
  prefill?: QaPrefill;
  title?: string;
}

/**
 * The editor as a piece of a screen: `open(target)` shows it, `element` is where it renders (inside
 * the screen's own dialog when there is one, so focus stays trapped in the right layer).
 */
export function useQaEditor(assistantId: string, onSaved?: (pair: QaPair) => void) {
  const [target, setTarget] = useState<(QaEditorTarget & { key: number }) | null>(null);
  const element = target ? (
    <QaEditor
      key={target.key}
      assistantId={assistantId}
      pair={target.pair}
      prefill={target.prefill}
      title={target.title}
      onClose={() => setTarget(null)}
      onSaved={(pair) => onSaved?.(pair)}
    />
  ) : null;
  return { open: (next: QaEditorTarget) => setTarget({ ...next, key: Date.now() }), element };
}
