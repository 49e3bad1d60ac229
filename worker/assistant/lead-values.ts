import { leadLimits as L, leadMessages as M, stripUnsafeText, type LeadField, type LeadForm, type Lead } from "../../contract";

/**
 * A visitor's submission checked against the owner's form as it is now (pure; unit-tested in
 * lead-values.test.ts): every key a field of the form, every value text, required ones present,
 * lengths per kind, e-mail and phone shapes. Each refusal names the field by its English label
 * (the kind's own when the owner gave none). Values are cleaned (`stripUnsafeText`) and trimmed;
 * an empty optional value is left out. The values come back in the form's order, each with the
 * label it was asked under.
 */

export type LeadValue = Lead["values"][number];

/** A refusal names the field (`field`: its key, for the widget to show it there; "fields" for an unknown key). */
export type LeadValuesCheck = { ok: true; values: LeadValue[] } | { ok: false; error: string; field: string };

/** How many characters of an unknown key a refusal quotes. */
const QUOTED_KEY_CHARS = 40;

/**
 * The label the owner reads a field under: its English label, else the kind's (a text field, whose
 * kind says nothing, its label in another language first).
 */
export const fieldLabel = (field: Pick<LeadField, "kind" | "label">): string =>
  field.label.en?.trim() || (field.kind === "text" ? field.label.fr?.trim() || field.label.ar?.trim() : "") || M.defaultLabels[field.kind];

export function checkLeadValues(form: Pick<LeadForm, "fields">, submitted: Record<string, unknown>): LeadValuesCheck {
  const byKey = new Map(form.fields.map((f) => [f.key, f]));
  for (const key of Object.keys(submitted)) {
    if (!byKey.has(key)) return { ok: false, error: M.unknownField(stripUnsafeText(key).slice(0, QUOTED_KEY_CHARS)), field: "fields" };
  }
  const values: LeadValue[] = [];
  for (const field of form.fields) {
    const label = fieldLabel(field);
    const raw = Object.hasOwn(submitted, field.key) ? submitted[field.key] : undefined;
    if (raw !== undefined && raw !== null && typeof raw !== "string") return { ok: false, error: M.valueMustBeText(label), field: field.key };
    const value = typeof raw === "string" ? stripUnsafeText(raw).trim() : "";
    if (!value) {
      if (field.required) return { ok: false, error: M.valueRequired(label), field: field.key };
      continue;
    }
    const max = L.maxValueChars[field.kind];
    if (value.length > max) return { ok: false, error: M.valueTooLong(label, max), field: field.key };
    if (field.kind === "email" && !L.emailPattern.test(value)) return { ok: false, error: M.emailInvalidFor(label), field: field.key };
    if (field.kind === "phone" && !validPhone(value)) return { ok: false, error: M.phoneInvalidFor(label, L.phoneDigits.min, L.phoneDigits.max), field: field.key };
    values.push({ key: field.key, kind: field.kind, label, value });
  }
  return { ok: true, values };
}

/** A phone number: the contract's characters, and between phoneDigits.min and .max digits. */
export function validPhone(value: string): boolean {
  if (!L.phonePattern.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= L.phoneDigits.min && digits <= L.phoneDigits.max;
}

/** The lower-cased text a search runs over: every value, one a line. */
export const leadSearchText = (values: readonly Pick<LeadValue, "value">[]): string => values.map((v) => v.value.toLowerCase()).join("\n");

/** The submitted e-mail, when the form has an e-mail field and the visitor gave it. */
export const leadEmail = (values: readonly LeadValue[]): string | null => values.find((v) => v.kind === "email")?.value ?? null;
