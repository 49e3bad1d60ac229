/**
 * The Create/Edit dialog's values (spec section 4): a new assistant starts from the contract's
 * defaults, an edit preloads everything. Numbers stay text while typed and are parsed as integers on
 * save (spec section 5: bounds are on the inputs only, no other check before saving). Pure, unit-tested.
 */
import {
  publicAssistantDefaults as D,
  type PublicAssistant,
  type PublicAssistantBody,
  type BotDefenceMode,
  type BudgetAction,
  type QaStrictness,
  type RetentionDays,
  type VisitorLimitScope,
  type WidgetPosition,
  type WidgetSize,
  type widgetLanguages,
  type widgetThemes,
} from "../../../../contract";

export interface AssistantFormValues {
  name: string;
  description: string;
  isActive: boolean;
  maxMessagesPerSession: string;
  dailyLimit: string;
  primaryColor: string;
  headerText: string;
  welcomeMessage: string;
  /** How visitors reach the owner when the documents do not cover a question ("" for none). */
  contactLine: string;
  theme: (typeof widgetThemes)[number];
  language: (typeof widgetLanguages)[number];
  /** Under the name in the widget's header ("" for none). */
  availabilityLine: string;
  /** As typed, one per field (blank fields included; the server drops them). */
  starterQuestions: string[];
  allowAttachments: boolean;
  /** Monthly visitor messages; empty = no budget. */
  monthlyBudget: string;
  budgetAction: BudgetAction;
  botDefence: BotDefenceMode;
  visitorLimitScope: VisitorLimitScope;
  /** Curated answers' strictness (set from the Knowledge tab's curated answers). */
  qaStrictness: QaStrictness;
  instructions: string;
  showSources: boolean;
  widgetPosition: WidgetPosition;
  widgetSize: WidgetSize;
  /** One origin per line. */
  allowedOrigins: string;
  /** How long visitors' conversations are kept: "keep" or a number of days (contract privacyLimits.retentionDays). */
  retentionDays: RetentionChoice;
  retentionIncludesLeads: boolean;
  /** The widget's privacy line and its policy link ("" for none). */
  privacyNotice: string;
  privacyUrl: string;
}

export type RetentionChoice = "keep" | `${RetentionDays}`;

/** The form's retention choice → config.retentionDays, and back. */
export const retentionFromChoice = (c: RetentionChoice): RetentionDays | null => (c === "keep" ? null : (Number(c) as RetentionDays));
export const retentionChoiceOf = (days: number | null | undefined): RetentionChoice =>
  days === null || days === undefined ? "keep" : (String(days) as RetentionChoice);

export type AssistantFormTab = "basic" | "limits" | "widget";

export const defaultFormValues: AssistantFormValues = {
  name: D.name,
  description: D.description,
  isActive: D.isActive,
  maxMessagesPerSession: String(D.config.maxMessagesPerSession),
  dailyLimit: String(D.config.dailyLimit),
  primaryColor: D.config.customization.primaryColor,
  headerText: D.config.customization.headerText,
  welcomeMessage: D.config.customization.welcomeMessage,
  contactLine: D.config.customization.contactLine,
  theme: D.config.customization.theme,
  language: D.config.customization.language,
  availabilityLine: D.config.customization.availabilityLine,
  starterQuestions: [...D.config.customization.starterQuestions],
  allowAttachments: D.config.allowAttachments,
  monthlyBudget: "",
  budgetAction: D.config.budgetAction,
  botDefence: D.config.botDefence,
  visitorLimitScope: D.config.visitorLimitScope,
  qaStrictness: D.config.qaStrictness,
  instructions: "",
  showSources: true,
  widgetPosition: D.integration.widgetPosition,
  widgetSize: D.integration.widgetSize,
  allowedOrigins: "",
  retentionDays: retentionChoiceOf(D.config.retentionDays),
  retentionIncludesLeads: D.config.retentionIncludesLeads,
  privacyNotice: D.config.customization.privacyNotice,
  privacyUrl: D.config.customization.privacyUrl,
};

export function formValuesFrom(assistant: PublicAssistant | null | undefined): AssistantFormValues {
  if (!assistant) return { ...defaultFormValues };
  const { config, integration } = assistant;
  return {
    name: assistant.name,
    description: assistant.description,
    isActive: assistant.isActive,
    maxMessagesPerSession: String(config.maxMessagesPerSession),
    dailyLimit: String(config.dailyLimit),
    primaryColor: config.customization.primaryColor,
    headerText: config.customization.headerText,
    welcomeMessage: config.customization.welcomeMessage,
    contactLine: config.customization.contactLine,
    theme: config.customization.theme,
    language: config.customization.language,
    availabilityLine: config.customization.availabilityLine,
    starterQuestions: [...config.customization.starterQuestions],
    allowAttachments: config.allowAttachments,
    monthlyBudget: config.monthlyBudget === null ? "" : String(config.monthlyBudget),
    budgetAction: config.budgetAction,
    botDefence: config.botDefence,
    visitorLimitScope: config.visitorLimitScope,
    qaStrictness: config.qaStrictness,
    instructions: assistant.instructions,
    showSources: assistant.showSources,
    widgetPosition: integration.widgetPosition,
    widgetSize: integration.widgetSize,
    allowedOrigins: assistant.allowedOrigins.join("\n"),
    retentionDays: retentionChoiceOf(config.retentionDays),
    retentionIncludesLeads: config.retentionIncludesLeads,
    privacyNotice: config.customization.privacyNotice,
    privacyUrl: config.customization.privacyUrl,
  };
}

/** parseInt in base 10. Not a number → NaN, which JSON sends as null and the server names the field. */
export const parseInteger = (value: string): number => Number.parseInt(value.trim(), 10);

/** Non-empty trimmed lines. */
export function parseOrigins(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** `#` and six hex digits: what the server takes as a colour. */
export const isHexColor = (value: string) => /^#[0-9a-f]{6}$/i.test(value.trim());

/**
 * The form's own checks before it is sent: what the owner must give (a name) and what would be
 * refused anyway (a colour that is not one), each with its sentence. Empty: send it.
 */
export function checkFormValues(v: AssistantFormValues, messages: { nameRequired: string; colorInvalid: (value: string) => string }): Partial<Record<keyof AssistantFormValues, string>> {
  const errors: Partial<Record<keyof AssistantFormValues, string>> = {};
  if (!v.name.trim()) errors.name = messages.nameRequired;
  if (!isHexColor(v.primaryColor)) errors.primaryColor = messages.colorInvalid(v.primaryColor.trim());
  return errors;
}

/** The tab of the first field with an error (`mapFieldErrors`' order). */
export function tabOfFirstError(errors: Partial<Record<keyof AssistantFormValues, string>>): AssistantFormTab | null {
  const first = (Object.keys(tabOfField) as (keyof AssistantFormValues)[]).find((k) => errors[k]);
  return first ? tabOfField[first] : null;
}

/** A colour the native picker can show (#rrggbb), else the default. */
export function pickerColor(value: string): string {
  return isHexColor(value) ? value.trim().toLowerCase() : D.config.customization.primaryColor.toLowerCase();
}

/** The POST/PUT body: every field the dialog shows. */
export function toRequestBody(v: AssistantFormValues): PublicAssistantBody {
  return {
    name: v.name,
    description: v.description,
    isActive: v.isActive,
    config: {
      maxMessagesPerSession: parseInteger(v.maxMessagesPerSession),
      dailyLimit: parseInteger(v.dailyLimit),
      allowAttachments: v.allowAttachments,
      monthlyBudget: v.monthlyBudget.trim() === "" ? null : parseInteger(v.monthlyBudget),
      budgetAction: v.budgetAction,
      botDefence: v.botDefence,
      visitorLimitScope: v.visitorLimitScope,
      qaStrictness: v.qaStrictness,
      retentionDays: retentionFromChoice(v.retentionDays),
      retentionIncludesLeads: v.retentionIncludesLeads,
      customization: {
        primaryColor: v.primaryColor.trim(),
        headerText: v.headerText,
        welcomeMessage: v.welcomeMessage,
        contactLine: v.contactLine,
        starterQuestions: v.starterQuestions,
        theme: v.theme,
        language: v.language,
        availabilityLine: v.availabilityLine,
        privacyNotice: v.privacyNotice,
        privacyUrl: v.privacyUrl,
      },
    },
    integration: { widgetPosition: v.widgetPosition, widgetSize: v.widgetSize },
    instructions: v.instructions,
    allowedOrigins: parseOrigins(v.allowedOrigins),
    showSources: v.showSources,
  };
}

/** The server's field path (`config.dailyLimit`, `allowedOrigins.2`) → the form field it belongs to. */
export function formFieldOf(serverField: string): keyof AssistantFormValues | null {
  const [head, second, third] = serverField.split(".");
  if (head === "config") {
    if (second === "customization") return (third as keyof AssistantFormValues) ?? null;
    return (second as keyof AssistantFormValues) ?? null;
  }
  if (head === "integration") return (second as keyof AssistantFormValues) ?? null;
  return (head as keyof AssistantFormValues) ?? null;
}

const tabOfField: Record<keyof AssistantFormValues, AssistantFormTab> = {
  name: "basic",
  description: "basic",
  isActive: "basic",
  maxMessagesPerSession: "limits",
  dailyLimit: "limits",
  monthlyBudget: "limits",
  budgetAction: "limits",
  botDefence: "limits",
  visitorLimitScope: "limits",
  qaStrictness: "limits",
  primaryColor: "limits",
  headerText: "limits",
  welcomeMessage: "limits",
  contactLine: "limits",
  theme: "limits",
  language: "limits",
  availabilityLine: "limits",
  starterQuestions: "limits",
  allowAttachments: "limits",
  instructions: "limits",
  showSources: "limits",
  widgetPosition: "widget",
  widgetSize: "widget",
  allowedOrigins: "widget",
  retentionDays: "widget",
  retentionIncludesLeads: "widget",
  privacyNotice: "widget",
  privacyUrl: "widget",
};

/** Server field errors → form field errors (first message per field) and the tab of the first one. */
export function mapFieldErrors(fields: Record<string, string>): { errors: Partial<Record<keyof AssistantFormValues, string>>; tab: AssistantFormTab | null } {
  const errors: Partial<Record<keyof AssistantFormValues, string>> = {};
  let tab: AssistantFormTab | null = null;
  for (const [key, message] of Object.entries(fields)) {
    const field = formFieldOf(key);
    if (!field || !(field in tabOfField)) continue;
    errors[field] ??= message;
    tab ??= tabOfField[field];
  }
  return { errors, tab };
}
