/**
 * The pure half of the lead form editor (lead-form-editor.tsx): the form as edited (the number
 * as typed), adding, moving and removing fields with the keys the contract asks for, the check
 * with the contract's schema before a save, and where each error goes (a server 400's `fields`
 * name paths like `fields.2.label.en` or `afterMessages`). No React, no DOM: unit-tested beside it.
 */
import { leadFormInput, leadLimits, leadsUi, type LeadField, type LeadForm, type LeadFormInput, type LeadLocale } from "../../../../../contract";

export type FieldKind = LeadField["kind"];
export const leadLocales: readonly LeadLocale[] = ["en", "fr", "ar"];

/** The form on screen: the stored form, with "after N messages" as typed. */
export type LeadFormDraft = Omit<LeadForm, "afterMessages"> & { afterMessages: string };

export const draftOf = (form: LeadForm): LeadFormDraft => ({
  ...form,
  fields: form.fields.map((f) => ({ ...f, label: { ...f.label } })),
  intro: { ...form.intro },
  thanks: { ...form.thanks },
  afterMessages: String(form.afterMessages),
});

/** The kinds a field may still be added as: each known kind once, text while there is room. */
export function addableKinds(draft: LeadFormDraft): FieldKind[] {
  if (draft.fields.length >= leadLimits.maxFields) return [];
  return leadLimits.fieldKinds.filter((kind) => kind === "text" || !draft.fields.some((f) => f.kind === kind));
}

/** A new field of `kind` at the end: a known kind is keyed by its kind, a text field by the first free `textN`. */
export function addField(draft: LeadFormDraft, kind: FieldKind): LeadFormDraft {
  if (!addableKinds(draft).includes(kind)) return draft;
  let key: string = kind;
  if (kind === "text") {
    const used = new Set(draft.fields.map((f) => f.key));
    key = Array.from({ length: leadLimits.maxFields }, (_, i) => `text${i + 1}`).find((k) => !used.has(k)) ?? "text1";
  }
  return { ...draft, fields: [...draft.fields, { key, kind, label: {}, required: false }] };
}

export function moveField(draft: LeadFormDraft, index: number, by: -1 | 1): LeadFormDraft {
  const to = index + by;
  if (index < 0 || to < 0 || to >= draft.fields.length) return draft;
  const fields = [...draft.fields];
  [fields[index], fields[to]] = [fields[to]!, fields[index]!];
  return { ...draft, fields };
}

export function removeField(draft: LeadFormDraft, index: number): LeadFormDraft {
  return { ...draft, fields: draft.fields.filter((_, i) => i !== index) };
}

export function updateField(draft: LeadFormDraft, index: number, change: Partial<LeadField>): LeadFormDraft {
  return { ...draft, fields: draft.fields.map((f, i) => (i === index ? { ...f, ...change } : f)) };
}

/** The request body of a draft (the whole form: PUT keeps nothing of the old one it is given). */
export function bodyOf(draft: LeadFormDraft): LeadFormInput {
  const minutes = draft.afterMessages.trim() === "" ? Number.NaN : Number(draft.afterMessages);
  return { ...draft, afterMessages: minutes };
}

/**
 * Where an error is shown: a field's label (`fields.N.label`), a field's row (`fields.N`), the list
 * of fields (`fields`), one of the form's own settings (`intro`, `afterMessages`…), or above the
 * Save button (`form`). A locale in the path (`intro.fr`) is dropped: the message names the limit.
 */
export function errorSlot(path: string): string {
  const parts = path.split(".").filter(Boolean);
  if (parts[0] === "fields") {
    if (parts.length === 1 || !/^\d+$/.test(parts[1]!)) return "fields";
    return parts[2] === "label" ? `fields.${parts[1]}.label` : `fields.${parts[1]}`;
  }
  const own = ["enabled", "intro", "thanks", "beforeFirstMessage", "afterMessages", "whenAsked", "whenUnanswered", "emailOwner"];
  return parts[0] && own.includes(parts[0]) ? parts[0] : "form";
}

/** Errors by slot (the first one per slot wins), from a server's `fields` or the schema's issues. */
export function errorsBySlot(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) out[errorSlot(path)] ??= message;
  return out;
}

/** The draft checked with the contract's request schema: the body to send, or the errors by slot. */
export function checkDraft(draft: LeadFormDraft): { ok: true; body: LeadFormInput } | { ok: false; errors: Record<string, string> } {
  const body = bodyOf(draft);
  const parsed = leadFormInput.safeParse(body);
  if (parsed.success) return { ok: true, body };
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[issue.path.join(".")] ??= issue.message;
  return { ok: false, errors: errorsBySlot(fields) };
}

/** A field's name for the owner: their English label, else the kind's name ("Text" for an unnamed text field). */
export function fieldName(field: LeadField): string {
  return field.label.en?.trim() || field.label.fr?.trim() || field.label.ar?.trim() || leadsUi.form.kinds[field.kind] || field.kind;
}

/**
 * The label a visitor in `locale` sees: the owner's label in that locale, else in English, else the
 * kind's default (`defaults`, the widget's own words per locale when known).
 */
export function visitorLabel(field: LeadField, locale: LeadLocale, defaults: (kind: FieldKind, locale: LeadLocale) => string): string {
  return field.label[locale]?.trim() || field.label.en?.trim() || defaults(field.kind, locale);
}

/** The owner's line in `locale`, else in English, else `fallback`. */
export function localLine(text: LeadForm["intro"], locale: LeadLocale, fallback: string): string {
  return text[locale]?.trim() || text.en?.trim() || fallback;
}

/** Whether the draft differs from the form saved. */
export function isDirty(draft: LeadFormDraft, saved: LeadForm): boolean {
  const clean = (t: LeadForm["intro"]) => Object.fromEntries(Object.entries(t).filter(([, v]) => v?.trim()));
  const plain = (d: LeadFormDraft) =>
    JSON.stringify({ ...d, afterMessages: d.afterMessages.trim(), fields: d.fields.map((f) => ({ ...f, label: clean(f.label) })), intro: clean(d.intro), thanks: clean(d.thanks) });
  return plain(draft) !== plain(draftOf(saved));
}
