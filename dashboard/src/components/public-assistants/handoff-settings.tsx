/**
 * The Settings tab's "Talk to a person" section: the widget's action (off by default), the texts a
 * waiting visitor sees, when a takeover ends by itself, when an anonymous visitor is asked for an
 * e-mail, and the owner's e-mail on requests. Checked with the contract's schema, saved with the
 * assistant's update call (`config.handoff`, merged over what is stored); the server's field
 * errors are shown under their fields.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { handoffLimits, handoffSettingsInput, inboxUi, type HandoffSettings, type PublicAssistant } from "../../../../contract";
import { errorMessage, fieldErrors } from "../../lib/api";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { toast } from "../../stores/toast";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { inputClasses, TextField } from "../ui/field";
import { Switch } from "../ui/switch";

const S = inboxUi.settings;
type Field = keyof HandoffSettings;

/** The form's values (the minutes as typed). */
interface Values {
  visitorAction: boolean;
  businessHours: string;
  replyTime: string;
  idleEndMinutes: number;
  emailAfterMinutes: string;
  emailOwner: boolean;
}

const fieldNames: readonly Field[] = ["visitorAction", "businessHours", "replyTime", "idleEndMinutes", "emailAfterMinutes", "emailOwner"];
const valuesOf = (h: HandoffSettings): Values => ({ ...h, emailAfterMinutes: String(h.emailAfterMinutes) });

/** The field a server or schema error is about: the last part of its path (`config.handoff.replyTime` → replyTime). */
export function handoffFieldErrors(fields: Record<string, string>): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  for (const [path, message] of Object.entries(fields)) {
    const key = fieldNames.find((f) => f === path.split(".").pop());
    if (key) out[key] ??= message;
  }
  return out;
}

/** The body of the form's values, checked with the contract's schema: the settings, or the errors by field. */
export function checkHandoffValues(v: Values): { ok: true; value: HandoffSettings } | { ok: false; errors: Partial<Record<Field, string>> } {
  const minutes = v.emailAfterMinutes.trim() === "" ? Number.NaN : Number(v.emailAfterMinutes);
  const parsed = handoffSettingsInput.safeParse({ ...v, emailAfterMinutes: minutes });
  if (parsed.success) return { ok: true, value: parsed.data as HandoffSettings };
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[issue.path.join(".")] ??= issue.message;
  return { ok: false, errors: handoffFieldErrors(fields) };
}

export function HandoffSettingsSection({ assistant, onSaved }: { assistant: PublicAssistant; onSaved: () => void }) {
  const titleId = useId();
  const selectId = useId();
  const saved = assistant.config.handoff;
  const [values, setValues] = useState<Values>(() => valuesOf(saved));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const savedKey = JSON.stringify(saved);
  useEffect(() => setValues(valuesOf(JSON.parse(savedKey) as HandoffSettings)), [savedKey]);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkHandoffValues(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setSaving(true);
    setFormError(null);
    try {
      await publicAssistantsApi.update(assistant._id, { config: { handoff: checked.value } });
      toast({ variant: "success", title: S.saved });
      onSaved();
    } catch (err) {
      const fields = handoffFieldErrors(fieldErrors(err));
      setErrors(fields);
      setFormError(Object.keys(fields).length ? null : errorMessage(err, S.saveFailed));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby={titleId} className="space-y-4 rounded-xl border border-line bg-surface p-4 sm:p-5">
      <div>
        <h2 id={titleId} className="text-base font-semibold text-fg">
          {S.title}
        </h2>
        <p className="mt-1 text-sm text-muted">{S.intro}</p>
      </div>
      <form onSubmit={(e) => void save(e)} noValidate className="space-y-4">
        <Switch label={S.visitorAction} hint={S.visitorActionHint} checked={values.visitorAction} onChange={(v) => set("visitorAction", v)} />
        <div className="grid gap-4 md:grid-cols-2">
          <TextField
            label={S.businessHours}
            name="businessHours"
            value={values.businessHours}
            onChange={(e) => set("businessHours", e.target.value)}
            hint={S.businessHoursHint}
            error={errors.businessHours}
          />
          <TextField
            label={S.replyTime}
            name="replyTime"
            value={values.replyTime}
            onChange={(e) => set("replyTime", e.target.value)}
            hint={S.replyTimeHint}
            error={errors.replyTime}
          />
          <div>
            <label htmlFor={selectId} className="mb-1.5 block text-sm font-medium text-fg">
              {S.idleEnd}
            </label>
            <select
              id={selectId}
              name="idleEndMinutes"
              value={values.idleEndMinutes}
              onChange={(e) => set("idleEndMinutes", Number(e.target.value))}
              aria-describedby={`${selectId}-hint`}
              aria-invalid={errors.idleEndMinutes ? true : undefined}
              className={`${inputClasses} border-line-strong`}
            >
              {handoffLimits.idleEndMinutesOptions.map((m) => (
                <option key={m} value={m}>
                  {S.idleEndOption(m)}
                </option>
              ))}
            </select>
            <p id={`${selectId}-hint`} className={`mt-1.5 text-xs ${errors.idleEndMinutes ? "font-medium text-danger" : "text-muted"}`}>
              {errors.idleEndMinutes ?? S.idleEndHint}
            </p>
          </div>
          <TextField
            label={S.emailAfter}
            name="emailAfterMinutes"
            type="number"
            inputMode="numeric"
            min={handoffLimits.emailAfterMinutes.min}
            max={handoffLimits.emailAfterMinutes.max}
            value={values.emailAfterMinutes}
            onChange={(e) => set("emailAfterMinutes", e.target.value)}
            hint={S.emailAfterHint}
            error={errors.emailAfterMinutes}
          />
        </div>
        <Switch label={S.emailOwner} hint={S.emailOwnerHint} checked={values.emailOwner} onChange={(v) => set("emailOwner", v)} />
        <FormAlert message={formError} />
        <div className="flex justify-end border-t border-line pt-4">
          <Button type="submit" busy={saving}>
            {S.save}
          </Button>
        </div>
      </form>
    </section>
  );
}
