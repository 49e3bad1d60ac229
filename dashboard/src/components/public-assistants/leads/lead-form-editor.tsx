/**
 * The lead form editor (Leads tab): on/off, the fields, the intro and thank-you lines in the
 * language chosen (en/fr/ar), when the form shows, "E-mail me each lead"; Save checks the draft
 * with the contract's schema, then PUT …/lead-form, and shows the server's 400 on the field it
 * names. Beside it, the form as a visitor sees it (lead-form-preview.tsx).
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { leadLimits, leadsUi, widgetLeadStrings, type LeadForm, type LeadLocale } from "../../../../../contract";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { leadsApi } from "../../../lib/leads-api";
import { toast } from "../../../stores/toast";
import { FormAlert } from "../../ui/alert";
import { Button } from "../../ui/button";
import { inputClasses, TextField } from "../../ui/field";
import { Switch } from "../../ui/switch";
import { checkDraft, draftOf, errorsBySlot, isDirty, leadLocales, type FieldKind, type LeadFormDraft } from "./lead-form-draft";
import { LeadFormFields } from "./lead-form-fields";
import { LeadFormPreview } from "./lead-form-preview";

const F = leadsUi.form;

/** A known kind's label when the owner wrote none: the kind's name (the widget shows its own words per language). */
/** A known kind's label as the widget shows it in `locale` when the owner gave none (a text field has the owner's). */
export const defaultFieldLabel = (kind: FieldKind, locale: LeadLocale = "en"): string =>
  kind === "text" ? (F.kinds[kind] ?? kind) : widgetLeadStrings[locale].leadKinds[kind];

export function LeadFormEditor({ assistantId, form, onSaved }: { assistantId: string; form: LeadForm; onSaved: (form: LeadForm) => void }) {
  const [draft, setDraft] = useState<LeadFormDraft>(() => draftOf(form));
  const [locale, setLocale] = useState<LeadLocale>("en");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const formKey = JSON.stringify(form);
  useEffect(() => setDraft(draftOf(JSON.parse(formKey) as LeadForm)), [formKey]);
  const selectId = useId();
  const whenId = useId();
  const language = F.languages[locale] ?? locale;

  const change = (next: LeadFormDraft, cleared: string[]) => {
    setDraft(next);
    setErrors((e) => {
      const left = { ...e };
      for (const slot of [...cleared, "form"]) delete left[slot];
      return left;
    });
  };
  const set = <K extends keyof LeadFormDraft>(key: K, value: LeadFormDraft[K]) => change({ ...draft, [key]: value }, [key]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkDraft(draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setSaving(true);
    setErrors({});
    try {
      const saved = await leadsApi.saveForm(assistantId, checked.body);
      toast({ variant: "success", title: F.saved });
      onSaved(saved);
    } catch (err) {
      const fields = errorsBySlot(fieldErrors(err));
      setErrors(Object.keys(fields).length ? fields : { form: errorMessage(err, F.saveFailed) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void save(e)} noValidate className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0 space-y-5">
        <Switch label={F.enabled} hint={F.enabledHint} checked={draft.enabled} onChange={(v) => set("enabled", v)} />
        <div role="group" aria-label={F.languageLabel} className="flex flex-wrap items-center gap-1.5">
          <span className="mr-1 text-xs font-medium text-muted" aria-hidden="true">
            {F.languageLabel}
          </span>
          {leadLocales.map((l) => (
            <button
              key={l}
              type="button"
              lang={l}
              aria-pressed={locale === l}
              onClick={() => setLocale(l)}
              className={`inline-flex h-8 items-center rounded-full border px-3 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent ${
                locale === l ? "border-accent bg-accent-soft text-accent-text" : "border-line-strong text-muted hover:bg-subtle hover:text-fg"
              }`}
            >
              {F.languages[l]}
            </button>
          ))}
        </div>
        <LeadFormFields draft={draft} locale={locale} errors={errors} defaultLabel={defaultFieldLabel} onChange={change} />
        <div className="grid gap-4 md:grid-cols-2">
          <TextField
            label={F.introLabel(language)}
            name="intro"
            dir={locale === "ar" ? "rtl" : undefined}
            maxLength={leadLimits.maxIntroChars}
            value={draft.intro[locale] ?? ""}
            onChange={(e) => set("intro", { ...draft.intro, [locale]: e.target.value })}
            hint={F.textsHint}
            error={errors.intro}
          />
          <TextField
            label={F.thanksLabel(language)}
            name="thanks"
            dir={locale === "ar" ? "rtl" : undefined}
            maxLength={leadLimits.maxThanksChars}
            value={draft.thanks[locale] ?? ""}
            onChange={(e) => set("thanks", { ...draft.thanks, [locale]: e.target.value })}
            hint={F.textsHint}
            error={errors.thanks}
          />
        </div>
        <fieldset aria-labelledby={whenId} className="space-y-4 border-t border-line pt-4">
          <div>
            <legend id={whenId} className="text-sm font-semibold text-fg">
              {F.whenTitle}
            </legend>
            <p className="mt-0.5 text-xs text-muted">{F.whenHint}</p>
          </div>
          <div className="grid gap-4 md:grid-cols-2">
            <div>
              <label htmlFor={selectId} className="mb-1.5 block text-sm font-medium text-fg">
                {F.beforeFirst}
              </label>
              <select
                id={selectId}
                value={draft.beforeFirstMessage}
                onChange={(e) => set("beforeFirstMessage", e.target.value as LeadFormDraft["beforeFirstMessage"])}
                aria-invalid={errors.beforeFirstMessage ? true : undefined}
                aria-describedby={errors.beforeFirstMessage ? `${selectId}-error` : undefined}
                className={`${inputClasses} border-line-strong`}
              >
                {leadLimits.beforeFirstMessageModes.map((m) => (
                  <option key={m} value={m}>
                    {F.beforeFirstModes[m]}
                  </option>
                ))}
              </select>
              {errors.beforeFirstMessage ? (
                <p id={`${selectId}-error`} className="mt-1.5 text-xs font-medium text-danger">
                  {errors.beforeFirstMessage}
                </p>
              ) : null}
            </div>
            <TextField
              label={F.afterMessages}
              name="afterMessages"
              type="number"
              inputMode="numeric"
              min={leadLimits.afterMessages.min}
              max={leadLimits.afterMessages.max}
              value={draft.afterMessages}
              onChange={(e) => set("afterMessages", e.target.value)}
              hint={F.afterMessagesHint}
              error={errors.afterMessages}
            />
          </div>
          <Switch label={F.whenAsked} hint={F.whenAskedHint} checked={draft.whenAsked} onChange={(v) => set("whenAsked", v)} />
          <Switch label={F.whenUnanswered} hint={F.whenUnansweredHint} checked={draft.whenUnanswered} onChange={(v) => set("whenUnanswered", v)} />
        </fieldset>
        <div className="border-t border-line pt-4">
          <Switch label={F.emailOwner} hint={F.emailOwnerHint(leadLimits.maxOwnerEmailsPerHour)} checked={draft.emailOwner} onChange={(v) => set("emailOwner", v)} />
        </div>
        <FormAlert message={errors.form ?? errors.enabled ?? errors.whenAsked ?? errors.whenUnanswered ?? errors.emailOwner} />
        <div className="flex items-center justify-end gap-3 border-t border-line pt-4">
          {isDirty(draft, form) ? <span className="text-xs text-muted">{F.unsaved}</span> : null}
          <Button type="submit" busy={saving}>
            {F.save}
          </Button>
        </div>
      </div>
      <div className="min-w-0 lg:sticky lg:top-4 lg:self-start">
        <LeadFormPreview draft={draft} locale={locale} defaultLabel={defaultFieldLabel} />
      </div>
    </form>
  );
}
