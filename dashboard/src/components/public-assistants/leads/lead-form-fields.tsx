/**
 * The lead form editor's fields: each field's kind, its label in the language being edited (the
 * widget's default shown as placeholder for a known kind), Required, move up / down, remove; and
 * "Add field" with the kinds still allowed. Errors a save named are shown on the field they name.
 */
import { useId, useState } from "react";
import { leadLimits, leadsUi, type LeadField, type LeadLocale } from "../../../../../contract";
import { Button } from "../../ui/button";
import { inputClasses } from "../../ui/field";
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, TrashIcon } from "../../ui/icons";
import { addableKinds, addField, fieldName, moveField, removeField, updateField, type FieldKind, type LeadFormDraft } from "./lead-form-draft";

const F = leadsUi.form;

export function LeadFormFields({
  draft,
  locale,
  errors,
  defaultLabel,
  onChange,
}: {
  draft: LeadFormDraft;
  locale: LeadLocale;
  errors: Record<string, string>;
  defaultLabel: (kind: FieldKind, locale: LeadLocale) => string;
  /** The new draft, and the error slots the change makes stale. */
  onChange: (draft: LeadFormDraft, cleared: string[]) => void;
}) {
  const headingId = useId();
  const addId = useId();
  const kinds = addableKinds(draft);
  const [adding, setAdding] = useState<FieldKind>("text");
  const kindToAdd = kinds.includes(adding) ? adding : kinds[0];
  const all = draft.fields.map((_, i) => [`fields.${i}`, `fields.${i}.label`]).flat();

  return (
    <fieldset aria-labelledby={headingId} className="space-y-3">
      <div>
        <legend id={headingId} className="text-sm font-semibold text-fg">
          {F.fieldsTitle}
        </legend>
        <p className="mt-0.5 text-xs text-muted">{F.fieldsHint(leadLimits.maxFields)}</p>
      </div>
      <ol className="space-y-2">
        {draft.fields.map((field, i) => (
          <FieldRow
            key={field.key}
            field={field}
            index={i}
            count={draft.fields.length}
            locale={locale}
            placeholder={field.kind === "text" ? "" : defaultLabel(field.kind, locale)}
            rowError={errors[`fields.${i}`]}
            labelError={errors[`fields.${i}.label`]}
            onLabel={(value) => onChange(updateField(draft, i, { label: { ...field.label, [locale]: value } }), [`fields.${i}.label`, "fields"])}
            onRequired={(required) => onChange(updateField(draft, i, { required }), [`fields.${i}`])}
            onMove={(by) => onChange(moveField(draft, i, by), all)}
            onRemove={() => onChange(removeField(draft, i), [...all, "fields"])}
          />
        ))}
      </ol>
      {errors.fields ? <p className="text-xs font-medium text-danger">{errors.fields}</p> : null}
      {kindToAdd ? (
        <div className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor={addId} className="mb-1 block text-xs font-medium text-muted">
              {F.addFieldLabel}
            </label>
            <select id={addId} value={kindToAdd} onChange={(e) => setAdding(e.target.value as FieldKind)} className={`${inputClasses} h-9 w-40 border-line-strong`}>
              {kinds.map((k) => (
                <option key={k} value={k}>
                  {F.kinds[k]}
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" size="md" onClick={() => onChange(addField(draft, kindToAdd), ["fields"])}>
            <PlusIcon size={14} /> {F.addField}
          </Button>
        </div>
      ) : (
        <p className="text-xs text-muted">{F.fieldsFull(leadLimits.maxFields)}</p>
      )}
    </fieldset>
  );
}

function FieldRow({
  field,
  index,
  count,
  locale,
  placeholder,
  rowError,
  labelError,
  onLabel,
  onRequired,
  onMove,
  onRemove,
}: {
  field: LeadField;
  index: number;
  count: number;
  locale: LeadLocale;
  placeholder: string;
  rowError?: string;
  labelError?: string;
  onLabel: (value: string) => void;
  onRequired: (required: boolean) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const name = fieldName(field);
  const hint = F.kindHint[field.kind];
  const describedBy = labelError ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <li className={`rounded-lg border bg-surface p-3 ${rowError || labelError ? "border-danger" : "border-line"}`} aria-label={F.fieldLegend(index + 1, name)}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex items-center gap-2 text-sm font-medium text-fg">
          <span className="rounded-md bg-subtle px-1.5 py-0.5 font-mono text-[11px] text-muted">{field.key}</span>
          {F.kinds[field.kind]}
        </span>
        <div className="flex items-center gap-1">
          <label className="mr-2 inline-flex items-center gap-1.5 text-sm text-fg">
            <input type="checkbox" checked={field.required} onChange={(e) => onRequired(e.target.checked)} aria-label={F.requiredOf(name)} className="size-4 accent-accent" />
            <span aria-hidden="true">{F.required}</span>
          </label>
          <Button variant="ghost" size="sm" className="size-8 px-0" aria-label={F.moveUp(name)} disabled={index === 0} onClick={() => onMove(-1)}>
            <ArrowUpIcon size={15} />
          </Button>
          <Button variant="ghost" size="sm" className="size-8 px-0" aria-label={F.moveDown(name)} disabled={index === count - 1} onClick={() => onMove(1)}>
            <ArrowDownIcon size={15} />
          </Button>
          <Button variant="ghost" size="sm" className="size-8 px-0 text-danger" aria-label={F.remove(name)} disabled={count <= 1} onClick={onRemove}>
            <TrashIcon size={15} />
          </Button>
        </div>
      </div>
      <div className="mt-2">
        <label htmlFor={id} className="mb-1 block text-xs font-medium text-muted">
          {F.labelIn(F.languages[locale] ?? locale)}
        </label>
        <input
          id={id}
          dir={locale === "ar" ? "rtl" : undefined}
          lang={locale}
          value={field.label[locale] ?? ""}
          placeholder={placeholder}
          maxLength={leadLimits.maxLabelChars}
          onChange={(e) => onLabel(e.target.value)}
          aria-invalid={labelError ? true : undefined}
          aria-describedby={describedBy}
          className={`${inputClasses} h-9 ${labelError ? "border-danger" : "border-line-strong"}`}
        />
        {labelError ? (
          <p id={`${id}-error`} className="mt-1 text-xs font-medium text-danger">
            {labelError}
          </p>
        ) : hint ? (
          <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
            {hint}
          </p>
        ) : null}
        {rowError ? <p className="mt-1 text-xs font-medium text-danger">{rowError}</p> : null}
      </div>
    </li>
  );
}
