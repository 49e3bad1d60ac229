/**
 * The Create/Edit Assistant form (spec sections 2 and 4), shared by the dialog (tabs Basic
 * Settings, Limits & Customization, Widget Configuration) and the assistant page's Settings tab
 * (sections; the groups are assistant-form-groups.tsx). Create starts from the contract's defaults;
 * edit preloads everything. A missing name or a colour that is not one is said on its field before
 * anything is sent; saving toasts and hands the saved assistant to `onSaved`; a refusal shows the
 * server's field messages on their tab.
 */
import { Fragment, useId, useState, type FormEvent, type ReactNode } from "react";
import {
  assistantLifecycleUi,
  publicAssistantMessages,
  privacyUi,
  publicAssistantUi,
  successMessages,
  widgetLookUi,
  type PublicAssistant,
} from "../../../../contract";
import { ApiError, errorMessage } from "../../lib/api";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { toast } from "../../stores/toast";
import { TabList, TabPanel, TabPanels, useTabIds } from "../ui/tabs";
import {
  checkFormValues,
  formValuesFrom,
  mapFieldErrors,
  pickerColor,
  tabOfFirstError,
  toRequestBody,
  type AssistantFormTab,
  type AssistantFormValues,
} from "./assistant-form";
import {
  BasicFields,
  BehaviourFields,
  FormSection,
  GreetingFields,
  LimitFields,
  LookFields,
  OriginsField,
  PlacementFields,
  PrivacyFields,
} from "./assistant-form-groups";
import { cleanStarterQuestions } from "./starter-questions";

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
  const setError = (key: keyof AssistantFormValues, message: string) => setErrors((e) => ({ ...e, [key]: message }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    // What is missing or would be refused is said here, on its field, before anything is sent.
    const own = checkFormValues(values, { nameRequired: assistantLifecycleUi.nameRequired, colorInvalid: widgetLookUi.colorInvalid });
    if (Object.keys(own).length) {
      setErrors(own);
      const first = tabOfFirstError(own);
      if (first) setTab(first);
      return;
    }
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

  return { editing, assistantId: assistant?._id ?? null, values, set, setError, tab, setTab, errors, saving, submit };
}

export type AssistantForm = ReturnType<typeof useAssistantForm>;

/**
 * The form itself; its submit buttons live with the caller (`form={formId}`). `layout="tabs"` (the
 * dialog): the spec's three tabs, which keep the tallest one's height (`fixedHeight`: the dialog
 * does not jump). `layout="sections"` (the Settings tab): titled sections, every appearance setting
 * together and apart from limits and behaviour, with `avatar` (uploaded at once) among them.
 */
export function AssistantFormFields({
  form,
  formId,
  label,
  fixedHeight = true,
  mockPreview = true,
  layout = "tabs",
  avatar,
}: {
  form: AssistantForm;
  formId: string;
  label: string;
  fixedHeight?: boolean;
  /** The drawn preview under the colour fields; the Settings tab shows the real widget beside the form instead. */
  mockPreview?: boolean;
  layout?: "tabs" | "sections";
  avatar?: ReactNode;
}) {
  const ids = useTabIds();
  const sectionId = useId();
  const Panels = fixedHeight ? TabPanels : Fragment;
  const panel = (key: AssistantFormTab) => (fixedHeight ? { inactive: tab !== key } : { hidden: tab !== key });
  const { values, tab, setTab, submit } = form;

  if (layout === "sections") {
    return (
      <form id={formId} noValidate aria-label={label} onSubmit={(e) => void submit(e)} className="space-y-6">
        <FormSection id={`${sectionId}-basic`} title={L.basic}>
          <BasicFields form={form} />
        </FormSection>
        <FormSection id={`${sectionId}-look`} title={widgetLookUi.appearanceTitle} text={widgetLookUi.appearanceText}>
          <GreetingFields form={form} />
          {avatar}
          <LookFields form={form} />
          <PlacementFields form={form} />
        </FormSection>
        <FormSection id={`${sectionId}-limits`} title={widgetLookUi.limitsTitle}>
          <LimitFields form={form} />
        </FormSection>
        <FormSection id={`${sectionId}-behaviour`} title={widgetLookUi.behaviourTitle}>
          <BehaviourFields form={form} />
        </FormSection>
        <FormSection id={`${sectionId}-origins`} title={widgetLookUi.installTitle}>
          <OriginsField form={form} />
        </FormSection>
        <FormSection id={`${sectionId}-privacy`} title={privacyUi.group.title} text={privacyUi.group.text}>
          <PrivacyFields form={form} />
        </FormSection>
      </form>
    );
  }

  return (
    <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="space-y-5">
      <TabList items={tabs} value={tab} onChange={setTab} label={label} ids={ids} className="w-full" />

      <Panels>
        <TabPanel tabKey="basic" ids={ids} {...panel("basic")} className="space-y-4">
          <BasicFields form={form} />
        </TabPanel>

        <TabPanel tabKey="limits" ids={ids} {...panel("limits")} className="space-y-6">
          <LimitFields form={form} />
          <div className="grid gap-5 sm:grid-cols-[1fr_220px]">
            <div className="space-y-4">
              <GreetingFields form={form} />
            </div>
            {mockPreview && (
              <div>
                <p className="mb-1.5 text-sm font-medium text-fg">{L.preview}</p>
                <WidgetPreview values={values} />
              </div>
            )}
          </div>
          <LookFields form={form} />
          <BehaviourFields form={form} />
        </TabPanel>

        <TabPanel tabKey="widget" ids={ids} {...panel("widget")} className="space-y-5">
          <PlacementFields form={form} />
          <OriginsField form={form} />
          <PrivacyFields form={form} />
        </TabPanel>
      </Panels>
    </form>
  );
}
