/** Form controls the assistant dialog needs beyond TextField: a labelled textarea and a radio-card group. */
import { useId, type ReactNode, type TextareaHTMLAttributes } from "react";

export function TextAreaField({
  label,
  hint,
  error,
  mono = false,
  className = "",
  ...rest
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id"> & { label: string; hint?: ReactNode; error?: string; mono?: boolean }) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-fg">
        {label}
      </label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`block w-full rounded-lg border bg-surface px-3 py-2 text-sm text-fg ${mono ? "font-mono" : ""} shadow-xs placeholder:text-faint focus:border-accent focus:ring-3 focus:ring-accent/20 focus:outline-none ${
          error ? "border-danger" : "border-line-strong"
        }`}
        {...rest}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1.5 text-xs font-medium text-danger">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export interface RadioOption<V extends string> {
  value: V;
  label: string;
  /** A small drawing beside the label. */
  visual?: ReactNode;
}

/** Native radios in a fieldset: arrow keys move between options, each option is labelled by its text. */
export function RadioCards<V extends string>({
  legend,
  value,
  options,
  onChange,
  columns = "grid-cols-2",
  error,
  hint,
}: {
  legend: string;
  value: V;
  options: readonly RadioOption<V>[];
  onChange: (value: V) => void;
  columns?: string;
  error?: string;
  /** One line under the options, read with the group. */
  hint?: string;
}) {
  const name = useId();
  return (
    <fieldset aria-describedby={hint ? `${name}-hint` : undefined}>
      <legend className="mb-2 text-sm font-medium text-fg">{legend}</legend>
      <div className={`grid gap-2 ${columns}`}>
        {options.map((o) => {
          const checked = o.value === value;
          return (
            <label
              key={o.value}
              className={`relative flex cursor-pointer items-center gap-2.5 rounded-lg border px-3 py-2.5 text-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent ${
                checked ? "border-accent bg-accent-soft text-fg" : "border-line-strong bg-surface text-fg hover:bg-subtle"
              }`}
            >
              {/* Transparent and covering the card: a click anywhere lands on the radio itself. */}
              <input
                type="radio"
                name={name}
                value={o.value}
                checked={checked}
                onChange={() => onChange(o.value)}
                className="absolute inset-0 m-0 size-full cursor-pointer appearance-none rounded-lg opacity-0"
              />
              {o.visual}
              <span className="font-medium">{o.label}</span>
            </label>
          );
        })}
      </div>
      {error ? <p className="mt-1.5 text-xs font-medium text-danger">{error}</p> : null}
      {hint ? (
        <p id={`${name}-hint`} className="mt-1.5 text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A tiny screen with the widget in one corner. */
export function CornerVisual({ corner, active }: { corner: string; active: boolean }) {
  const pos = {
    "bottom-right": "bottom-1 right-1",
    "bottom-left": "bottom-1 left-1",
    "top-right": "top-1 right-1",
    "top-left": "top-1 left-1",
  }[corner];
  return (
    <span aria-hidden="true" className="relative inline-block h-7 w-10 shrink-0 rounded border border-line-strong bg-subtle">
      <span className={`absolute size-2.5 rounded-full ${pos ?? ""} ${active ? "bg-accent" : "bg-faint"}`} />
    </span>
  );
}

/** A widget outline whose size grows with the option. */
export function SizeVisual({ size, active }: { size: string; active: boolean }) {
  const dims = { small: "h-3 w-2.5", medium: "h-4 w-3.5", large: "h-5 w-4.5" }[size];
  return (
    <span aria-hidden="true" className="hidden h-6 w-6 shrink-0 items-end justify-end sm:inline-flex">
      <span className={`rounded-sm ${dims ?? ""} ${active ? "bg-accent" : "bg-faint"}`} />
    </span>
  );
}
