/**
 * Labelled form controls. Every control has a real <label> (E2E tests find fields by label), and
 * an error is tied to its input with aria-invalid and aria-describedby.
 */
import { useId, type InputHTMLAttributes, type ReactNode } from "react";

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
  /** Something shown at the right of the label (e.g. a "Forgot password?" link). */
  labelAside?: ReactNode;
  optional?: boolean;
}

export const inputClasses =
  "block h-10 w-full rounded-lg border bg-surface px-3 text-sm text-fg shadow-xs transition-colors " +
  "placeholder:text-faint focus:outline-none focus-visible:outline-none focus:border-accent focus:ring-3 focus:ring-accent/20 " +
  "disabled:cursor-not-allowed disabled:opacity-60 read-only:bg-subtle";

export function TextField({ label, name, error, hint, labelAside, optional, className = "", ...rest }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <div className="mb-1.5 flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        {optional && !labelAside && <span className="text-xs text-faint">Optional</span>}
        {labelAside}
      </div>
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`${inputClasses} ${error ? "border-danger" : "border-line-strong"}`}
        {...rest}
      />
      {hint && !error && (
        <p id={hintId} className="mt-1.5 text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-xs font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

export function Checkbox({ label, name, defaultChecked }: { label: string; name: string; defaultChecked?: boolean }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        name={name}
        type="checkbox"
        defaultChecked={defaultChecked}
        className="size-4 rounded border-line-strong accent-accent"
      />
      <label htmlFor={id} className="text-sm text-fg">
        {label}
      </label>
    </div>
  );
}
