/**
 * State of a form that calls the API: submitting flag (buttons disable), the catalogue's error
 * message, and per-field errors (client-side from the contract schema, or the server's `fields`).
 */
import { useCallback, useState } from "react";
import type { z } from "zod";
import { toActionError } from "./api";

export type FieldErrors = Record<string, string>;

/** Field → first message of a failed contract-schema parse. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "");
    if (key && !out[key]) out[key] = issue.message;
  }
  return out;
}

/** Moves focus to the first invalid control of a form, after React painted the errors. */
export function focusFirstInvalid(form: HTMLFormElement | null) {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

export function useFormAction() {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<FieldErrors>({});

  /**
   * Runs `action`; on failure shows its message (or `fallback`) and field errors. With
   * `keepBusy`, a success leaves the form disabled (the page navigates away).
   */
  const run = useCallback(
    async (action: () => Promise<void>, fallback: string, opts: { keepBusy?: boolean; form?: HTMLFormElement | null } = {}) => {
      setSubmitting(true);
      setError(null);
      setFields({});
      try {
        await action();
        if (!opts.keepBusy) setSubmitting(false);
        return true;
      } catch (err) {
        const e = toActionError(err, fallback);
        // A message the server gave for one field is shown once, beside that field.
        setError(Object.values(e.fields).includes(e.message) ? null : e.message);
        setFields(e.fields);
        setSubmitting(false);
        if (opts.form) focusFirstInvalid(opts.form);
        return false;
      }
    },
    [],
  );

  /** Client-side check with a contract schema; shows the field errors and returns null if invalid. */
  const validate = useCallback(<S extends z.ZodType>(schema: S, values: unknown, form?: HTMLFormElement | null): z.output<S> | null => {
    const parsed = schema.safeParse(values);
    if (parsed.success) return parsed.data;
    setError(null);
    setFields(zodFieldErrors(parsed.error));
    focusFirstInvalid(form ?? null);
    return null;
  }, []);

  const reset = useCallback(() => {
    setError(null);
    setFields({});
  }, []);

  return { submitting, error, fields, run, validate, reset, setError };
}

/** The string values of a form (FormData), keyed by input name. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  new FormData(form).forEach((value, key) => {
    if (typeof value === "string") out[key] = value;
  });
  return out;
}
