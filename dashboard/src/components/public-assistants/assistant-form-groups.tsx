/**
 * The assistant form's groups of fields: what the owner is named by (basic), how the widget looks
 * (appearance: colour, header, welcome, contact line, starter questions, theme, language,
 * availability line, position, size; the avatar is its own field, uploaded at once), its limits and
 * budget, its behaviour (instructions, attachments, sources), where it runs (allowed origins), and
 * privacy (how long conversations are kept, the widget's privacy notice and link).
 * The dialog arranges them in the spec's three tabs; the Settings tab shows them as sections.
 */
import type { ReactNode } from "react";
import {
  botDefence,
  budgets,
  budgetUi,
  privacyLimits,
  privacyUi,
  publicAssistantFieldLimits as F,
  publicAssistantLimits as LIM,
  publicAssistantUi,
  visitorIdentity,
  widgetLanguages,
  widgetLookUi as W,
  widgetPositions,
  widgetSizes,
  widgetThemes,
} from "../../../../contract";
import { TextField } from "../ui/field";
import { Switch } from "../ui/switch";
import { isHexColor, pickerColor, retentionFromChoice, type AssistantFormValues, type RetentionChoice } from "./assistant-form";
import type { AssistantForm } from "./assistant-settings-form";
import { CornerVisual, RadioCards, SizeVisual, TextAreaField } from "./form-fields";
import { StarterQuestionsField } from "./starter-questions-field";

const L = publicAssistantUi.form;
const PV = privacyUi.group;

export interface GroupProps {
  form: AssistantForm;
}

/** A text field's value, change and error from the form. */
function textProps(form: AssistantForm, key: keyof AssistantFormValues) {
  return {
    value: form.values[key] as string,
    onChange: (e: { target: { value: string } }) => form.set(key, e.target.value as never),
    error: form.errors[key],
  };
}

export function BasicFields({ form }: GroupProps) {
  const { values, set } = form;
  return (
    <>
      <TextField label={L.name} name="name" autoComplete="off" placeholder={L.namePlaceholder} maxLength={F.maxNameChars} {...textProps(form, "name")} />
      <TextAreaField label={L.description} name="description" rows={3} placeholder={L.descriptionPlaceholder} maxLength={F.maxDescriptionChars} {...textProps(form, "description")} />
      <div className="rounded-lg border border-line p-3">
        <Switch label={L.active} checked={values.isActive} onChange={(v) => set("isActive", v)} hint={L.activeHint} />
      </div>
    </>
  );
}

/**
 * The colour: the picker and the hex field. Whatever is typed stays in the field (never cut to
 * seven characters, never reverted); one that is not `#RRGGBB` says so when the field is left.
 */
export function ColorField({ form }: GroupProps) {
  const { values, set, setError } = form;
  return (
    <div className="flex items-start gap-2">
      <input
        type="color"
        aria-label={L.colorPicker}
        value={pickerColor(values.primaryColor)}
        onChange={(e) => set("primaryColor", e.target.value.toUpperCase())}
        className="mt-7 h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-line-strong bg-surface p-1"
      />
      <TextField
        label={L.primaryColor}
        name="primaryColor"
        autoComplete="off"
        spellCheck={false}
        maxLength={64}
        placeholder="#2962FF"
        className="flex-1"
        onBlur={() => {
          if (!isHexColor(values.primaryColor)) setError("primaryColor", W.colorInvalid(values.primaryColor.trim()));
        }}
        {...textProps(form, "primaryColor")}
      />
    </div>
  );
}

/** Colour, header, welcome, contact line and starter questions (the dialog's Limits & Customization tab has these too). */
export function GreetingFields({ form }: GroupProps) {
  const { values, set, errors } = form;
  return (
    <>
      <ColorField form={form} />
      <TextField label={L.headerText} name="headerText" maxLength={F.maxHeaderTextChars} {...textProps(form, "headerText")} />
      <TextField
        label={W.availabilityLine}
        name="availabilityLine"
        maxLength={F.maxAvailabilityLineChars}
        placeholder={W.availabilityLinePlaceholder}
        hint={W.availabilityLineHint}
        {...textProps(form, "availabilityLine")}
      />
      <TextAreaField label={L.welcomeMessage} name="welcomeMessage" rows={2} maxLength={F.maxWelcomeMessageChars} {...textProps(form, "welcomeMessage")} />
      <TextField label={L.contactLine} name="contactLine" maxLength={F.maxContactLineChars} hint={L.contactLineHint} {...textProps(form, "contactLine")} />
      <StarterQuestionsField
        assistantId={form.assistantId}
        value={values.starterQuestions}
        onChange={(questions) => set("starterQuestions", questions)}
        error={errors.starterQuestions}
      />
    </>
  );
}

/** Theme and language: the owner's, or the visitor's ("auto"). */
export function LookFields({ form }: GroupProps) {
  const { values, set, errors } = form;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <RadioCards
        legend={W.theme}
        value={values.theme}
        onChange={(v) => set("theme", v)}
        error={errors.theme}
        columns="grid-cols-1"
        hint={W.themeHint}
        options={widgetThemes.map((t) => ({ value: t, label: W.themes[t] }))}
      />
      <RadioCards
        legend={W.language}
        value={values.language}
        onChange={(v) => set("language", v)}
        error={errors.language}
        columns="grid-cols-1"
        hint={W.languageHint}
        options={widgetLanguages.map((l) => ({ value: l, label: W.languages[l] }))}
      />
    </div>
  );
}

export function PlacementFields({ form }: GroupProps) {
  const { values, set, errors } = form;
  return (
    <>
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
    </>
  );
}

export function LimitFields({ form }: GroupProps) {
  const { values, set, errors } = form;
  return (
    <>
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
          {...textProps(form, "maxMessagesPerSession")}
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
          {...textProps(form, "dailyLimit")}
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
          {...textProps(form, "monthlyBudget")}
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
    </>
  );
}

export function BehaviourFields({ form }: GroupProps) {
  const { values, set } = form;
  return (
    <>
      <TextAreaField
        label={L.instructions}
        name="instructions"
        rows={4}
        placeholder={L.instructionsPlaceholder}
        hint={L.instructionsHint}
        maxLength={F.maxInstructionsChars}
        {...textProps(form, "instructions")}
      />
      <div className="space-y-3 rounded-lg border border-line p-3">
        <Switch label={L.allowAttachments} checked={values.allowAttachments} onChange={(v) => set("allowAttachments", v)} hint={L.allowAttachmentsHint} />
        <div className="border-t border-line" />
        <Switch label={L.showSources} checked={values.showSources} onChange={(v) => set("showSources", v)} hint={L.showSourcesHint} />
      </div>
    </>
  );
}

export function OriginsField({ form }: GroupProps) {
  return (
    <TextAreaField
      label={L.allowedOrigins}
      name="allowedOrigins"
      rows={4}
      spellCheck={false}
      placeholder={"https://example.com\nhttps://www.example.com"}
      hint={L.allowedOriginsHint}
      mono
      {...textProps(form, "allowedOrigins")}
    />
  );
}

const retentionChoices = ["keep", ...privacyLimits.retentionDays.map((d) => String(d))] as RetentionChoice[];

/**
 * Privacy: how long visitors' conversations are kept (with a sentence of what that deletes, and
 * whether their leads go too), and the widget's privacy line and policy link.
 */
export function PrivacyFields({ form }: GroupProps) {
  const { values, set } = form;
  const days = retentionFromChoice(values.retentionDays);
  return (
    <>
      <RadioCards
        legend={PV.retentionLabel}
        value={values.retentionDays}
        options={retentionChoices.map((c) => ({ value: c, label: PV.retentionOption(retentionFromChoice(c)) }))}
        onChange={(v) => set("retentionDays", v)}
        columns="grid-cols-2 sm:grid-cols-4"
        error={form.errors.retentionDays}
        hint={PV.retentionExplain(days, values.retentionIncludesLeads)}
      />
      {days !== null && (
        <div className="rounded-lg border border-line p-3">
          <Switch label={PV.retentionLeads} checked={values.retentionIncludesLeads} onChange={(v) => set("retentionIncludesLeads", v)} hint={PV.retentionLeadsHint} />
        </div>
      )}
      <TextAreaField
        label={PV.noticeLabel}
        name="privacyNotice"
        rows={2}
        placeholder={PV.noticePlaceholder}
        hint={PV.noticeHint}
        maxLength={privacyLimits.maxNoticeChars}
        {...textProps(form, "privacyNotice")}
      />
      <TextField
        label={PV.urlLabel}
        name="privacyUrl"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={PV.urlPlaceholder}
        hint={PV.urlHint}
        maxLength={privacyLimits.maxNoticeUrlChars}
        {...textProps(form, "privacyUrl")}
      />
    </>
  );
}

/** One titled section of the Settings tab's form. */
export function FormSection({ id, title, text, children }: { id: string; title: string; text?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-4 border-t border-line pt-5 first:border-t-0 first:pt-0">
      <div>
        <h3 id={id} className="text-base font-semibold text-fg">
          {title}
        </h3>
        {text && <p className="mt-0.5 text-sm text-muted">{text}</p>}
      </div>
      {children}
    </section>
  );
}
