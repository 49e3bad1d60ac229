/**
 * The Create/Edit Assistant form (spec sections 2 and 4), shared by the dialog and the assistant
 * page's Settings tab: tabs Basic Settings, Limits & Customization and Widget Configuration. Create
 * starts from the contract's defaults; edit preloads everything. Saving toasts, and hands the
 * saved assistant to `onSaved`; a refusal shows the server's field messages on their tab.
 */
import { Fragment, useState, type FormEvent } from "react";
import {
  botDefence,
  budgets,
  budgetUi,
  publicAssistantFieldLimits as F,
  publicAssistantLimits as LIM,
  publicAssistantMessages,
  publicAssistantUi,
  successMessages,
  visitorIdentity,
  widgetPositions,
  widgetSizes,
  type PublicAssistant,
} from "../../../../contract";
import { ApiError, errorMessage } from "../../lib/api";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { toast } from "../../stores/toast";
import { TextField } from "../ui/field";
import { Switch } from "../ui/switch";
import { TabList, TabPanel, TabPanels, useTabIds } from "../ui/tabs";
import {
  formValuesFrom,
  mapFieldErrors,
  pickerColor,
  toRequestBody,
  type AssistantFormTab,
  type AssistantFormValues,
} from "./assistant-form";
import { CornerVisual, RadioCards, SizeVisual, TextAreaField } from "./form-fields";
import { cleanStarterQuestions } from "./starter-questions";
import { StarterQuestionsField } from "./starter-questions-field";

const L = publicAssistantUi.form;
type Errors = Partial<Record<keyof AssistantFormValues, string>>;

const tabs = [
  { key: "basic", label: L.basic },
  { key: "limits", label: L.limits },
  { key: "widget", label: L.widget },
] as const satisfies readonly { key: AssistantFormTab; label: string }[];

/** The toast of a failed save: the catalogue's title, the server's message and its field message. */
function saveFailedToast(err: unknown) {
  const message = errorMessage(err, publicAssistantMessages.saveFailed);
  const fieldMessages = err instanceof ApiError && err.fields ? Object.values(err.fields) : [];
  const parts = [message === publicAssistantMessages.saveFailed ? null : message, ...fieldMessages.filter((m) => m !== message)];
  const description = [...new Set(parts.filter(Boolean))].join(" ");
  toast({ variant: "destructive", title: publicAssistantMessages.saveFailed, description: description || undefined });
}

function WidgetPreview({ values }: { values: AssistantFormValues }) {
  return (
    <div aria-hidden="true" className="overflow-hidden rounded-xl border border-line bg-canvas shadow-sm">
      <div className="flex items-center gap-2 px-3 py-2.5 text-sm font-semibold text-white" style={{ backgroundColor: pickerColor(values.primaryColor) }}>
        <span className="size-2 rounded-full bg-white/80" />
        <span className="truncate">{values.headerText || "\u00a0"}</span>
      </div>
      <div className="space-y-2 p-3">
        <p className="w-fit max-w-[85%] rounded-2xl rounded-tl-sm bg-subtle px-3 py-2 text-xs text-fg">{values.welcomeMessage || "\u00a0"}</p>
        {cleanStarterQuestions(values.starterQuestions).length > 0 && (
          <div className="flex flex-wrap gap-1">
            {cleanStarterQuestions(values.starterQuestions).map((q) => (
              <span key={q} className="max-w-full truncate rounded-full border px-2 py-0.5 text-[11px] text-fg" style={{ borderColor: pickerColor(values.primaryColor) }}>
                {q}
              </span>
            ))}
          </div>
        )}
        <p
          className="ml-auto w-fit max-w-[70%] rounded-2xl rounded-tr-sm px-3 py-2 text-xs text-white"
          style={{ backgroundColor: pickerColor(values.primaryColor) }}
        >
          …
        </p>
      </div>
    </div>
  );
}

/** The form's state and its submit. `assistant` null creates one. */
export function useAssistantForm(assistant: PublicAssistant | null, onSaved: (saved: PublicAssistant) => void) {
  const editing = assistant !== null;
  const [values, setValues] = useState<AssistantFormValues>(() => formValuesFrom(assistant));
  const [tab, setTab] = useState<AssistantFormTab>("basic");
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const set = <K extends keyof AssistantFormValues>(key: K, value: AssistantFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    setSaving(true);
    setErrors({});
    try {
      const body = toRequestBody(values);
      const saved = editing ? await publicAssistantsApi.update(assistant._id, body) : await publicAssistantsApi.create(body);
      toast({ variant: "success", description: editing ? successMessages.assistantUpdated : successMessages.assistantCreated });
      // Settings stay on screen in the Settings tab: ready for the next change.
      setSaving(false);
      onSaved(saved);
    } catch (err) {
      setSaving(false);
      if (err instanceof ApiError && err.fields) {
        const mapped = mapFieldErrors(err.fields);
        setErrors(mapped.errors);
        if (mapped.tab) setTab(mapped.tab);
      }
      saveFailedToast(err);
    }
  };

  return { editing, assistantId: assistant?._id ?? null, values, set, tab, setTab, errors, saving, submit };
}

export type AssistantForm = ReturnType<typeof useAssistantForm>;

/**
 * The form itself; its submit buttons live with the caller (`form={formId}`). In a dialog its
 * tabs keep the tallest one's height (`fixedHeight`: the dialog does not jump); on a page each
 * tab takes its own.
 */
export function AssistantFormFields({
  form,
  formId,
  label,
  fixedHeight = true,
  mockPreview = true,
}: {
  form: AssistantForm;
  formId: string;
  label: string;
  fixedHeight?: boolean;
  /** The drawn preview under the colour fields; the Settings tab shows the real widget beside the form instead. */
  mockPreview?: boolean;
}) {
  const ids = useTabIds();
  const Panels = fixedHeight ? TabPanels : Fragment;
  const panel = (key: AssistantFormTab) => (fixedHeight ? { inactive: tab !== key } : { hidden: tab !== key });
  const { values, set, tab, setTab, errors, submit } = form;
  const text = (key: keyof AssistantFormValues) => ({
    value: values[key] as string,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as never),
    error: errors[key],
  });

  return (
    <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="space-y-5">
      <TabList items={tabs} value={tab} onChange={setTab} label={label} ids={ids} className="w-full" />

      <Panels>
        <TabPanel tabKey="basic" ids={ids} {...panel("basic")} className="space-y-4">
          <TextField label={L.name} name="name" autoComplete="off" placeholder={L.namePlaceholder} maxLength={F.maxNameChars} {...text("name")} />
          <TextAreaField
            label={L.description}
            name="description"
            rows={3}
            placeholder={L.descriptionPlaceholder}
            maxLength={F.maxDescriptionChars}
            {...text("description")}
          />
          <div className="rounded-lg border border-line p-3">
            <Switch label={L.active} checked={values.isActive} onChange={(v) => set("isActive", v)} hint={L.activeHint} />
          </div>
        </TabPanel>

        <TabPanel tabKey="limits" ids={ids} {...panel("limits")} className="space-y-6">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={L.maxMessagesPerSession}
              name="maxMessagesPerSession"
              type="number"
              inputMode="numeric"
              step={1}
              min={LIM.maxMessagesPerSession.min}
              max={LIM.maxMessagesPerSession.max}
              hint={L.rangeHint(LIM.maxMessagesPerSession.min, LIM.maxMessagesPerSession.max)}
              {...text("maxMessagesPerSession")}
            />
            <TextField
              label={L.dailyLimit}
              name="dailyLimit"
              type="number"
              inputMode="numeric"
              step={1}
              min={LIM.dailyLimit.min}
              max={LIM.dailyLimit.max}
              hint={L.rangeHint(LIM.dailyLimit.min, LIM.dailyLimit.max)}
              {...text("dailyLimit")}
            />
          </div>

          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={budgetUi.monthlyBudget}
              name="monthlyBudget"
              type="number"
              inputMode="numeric"
              step={1}
              min={budgets.min}
              max={budgets.max}
              hint={budgetUi.monthlyBudgetHint(budgets.min, budgets.max)}
              {...text("monthlyBudget")}
            />
            <RadioCards
              legend={budgetUi.budgetAction}
              value={values.budgetAction}
              onChange={(v) => set("budgetAction", v)}
              error={errors.budgetAction}
              columns="grid-cols-1"
              options={budgets.actions.map((a) => ({ value: a, label: budgetUi.budgetActions[a] }))}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <RadioCards
              legend={budgetUi.botDefence}
              value={values.botDefence}
              onChange={(v) => set("botDefence", v)}
              error={errors.botDefence}
              columns="grid-cols-1"
              hint={budgetUi.botDefenceHint}
              options={botDefence.modes.map((m) => ({ value: m, label: budgetUi.botDefenceModes[m] }))}
            />
            <RadioCards
              legend={budgetUi.visitorLimitScope}
              value={values.visitorLimitScope}
              onChange={(v) => set("visitorLimitScope", v)}
              error={errors.visitorLimitScope}
              columns="grid-cols-1"
              hint={budgetUi.visitorLimitScopeHint}
              options={visitorIdentity.limitScopes.map((s) => ({ value: s, label: budgetUi.visitorLimitScopes[s] }))}
            />
          </div>

          <div className="grid gap-5 sm:grid-cols-[1fr_220px]">
            <div className="space-y-4">
              <div className="flex items-end gap-2">
                <input
                  type="color"
                  aria-label={L.colorPicker}
                  value={pickerColor(values.primaryColor)}
                  onChange={(e) => set("primaryColor", e.target.value.toUpperCase())}
                  className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-line-strong bg-surface p-1"
                />
                <TextField
                  label={L.primaryColor}
                  name="primaryColor"
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={7}
                  placeholder="#2962FF"
                  className="flex-1"
                  {...text("primaryColor")}
                />
              </div>
              <TextField label={L.headerText} name="headerText" maxLength={F.maxHeaderTextChars} {...text("headerText")} />
              <TextAreaField label={L.welcomeMessage} name="welcomeMessage" rows={2} maxLength={F.maxWelcomeMessageChars} {...text("welcomeMessage")} />
              <TextField label={L.contactLine} name="contactLine" maxLength={F.maxContactLineChars} hint={L.contactLineHint} {...text("contactLine")} />
              <StarterQuestionsField
                assistantId={form.assistantId}
                value={values.starterQuestions}
                onChange={(questions) => set("starterQuestions", questions)}
                error={errors.starterQuestions}
              />
            </div>
            {mockPreview && (
              <div>
                <p className="mb-1.5 text-sm font-medium text-fg">{L.preview}</p>
                <WidgetPreview values={values} />
              </div>
            )}
          </div>

          <TextAreaField
            label={L.instructions}
            name="instructions"
            rows={4}
            placeholder={L.instructionsPlaceholder}
            hint={L.instructionsHint}
            maxLength={F.maxInstructionsChars}
            {...text("instructions")}
          />
          <div className="space-y-3 rounded-lg border border-line p-3">
            <Switch label={L.allowAttachments} checked={values.allowAttachments} onChange={(v) => set("allowAttachments", v)} hint={L.allowAttachmentsHint} />
            <div className="border-t border-line" />
            <Switch label={L.showSources} checked={values.showSources} onChange={(v) => set("showSources", v)} hint={L.showSourcesHint} />
          </div>
        </TabPanel>

        <TabPanel tabKey="widget" ids={ids} {...panel("widget")} className="space-y-5">
          <RadioCards
            legend={L.widgetPosition}
            value={values.widgetPosition}
            onChange={(v) => set("widgetPosition", v)}
            error={errors.widgetPosition}
            options={widgetPositions.map((p) => ({ value: p, label: L.positions[p], visual: <CornerVisual corner={p} active={values.widgetPosition === p} /> }))}
          />
          <RadioCards
            legend={L.widgetSize}
            value={values.widgetSize}
            onChange={(v) => set("widgetSize", v)}
            error={errors.widgetSize}
            columns="grid-cols-3"
            options={widgetSizes.map((s) => ({ value: s, label: L.sizes[s], visual: <SizeVisual size={s} active={values.widgetSize === s} /> }))}
          />
          <TextAreaField
            label={L.allowedOrigins}
            name="allowedOrigins"
            rows={4}
            spellCheck={false}
            placeholder={"https://example.com\nhttps://www.example.com"}
            hint={L.allowedOriginsHint}
            mono
            {...text("allowedOrigins")}
          />
        </TabPanel>
      </Panels>
    </form>
  );
}
