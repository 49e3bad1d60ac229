/**
 * What the embedded widget of the Playground and of the Settings preview draws: the
 * widget's own config (GET /api/widget/config's `assistant`), from the saved assistant or from the
 * form's unsaved values. Pure, unit-tested.
 */
import { api, playgroundPath, type PublicAssistant } from "../../../../contract";
import type { PlaygroundConfig } from "../../../../widget-sdk/src/core/playground";
import type { AssistantFormValues } from "./assistant-form";
import { cleanStarterQuestions } from "./starter-questions";

/** The saved settings, as the widget on a visitor's page gets them. */
export function widgetConfigOf(assistant: PublicAssistant): PlaygroundConfig {
  const { config, integration } = assistant;
  return {
    id: assistant._id,
    name: assistant.name,
    headerText: config.customization.headerText,
    welcomeMessage: config.customization.welcomeMessage,
    starterQuestions: config.customization.starterQuestions,
    primaryColor: config.customization.primaryColor,
    position: integration.widgetPosition,
    size: integration.widgetSize,
    allowAttachments: config.allowAttachments,
    showSources: assistant.showSources,
    theme: config.customization.theme,
    language: config.customization.language,
    availabilityLine: config.customization.availabilityLine,
    avatarUrl: config.customization.avatarUrl,
    contactLine: config.customization.contactLine,
    ...privacyNoticeOf(config.customization),
  };
}

/** The form's current values, unsaved (the widget falls back to its default colour for an invalid one, as on a visitor's page). */
export function widgetConfigFromForm(assistantId: string, v: AssistantFormValues, saved: { avatarUrl: string } = { avatarUrl: "" }): PlaygroundConfig {
  return {
    id: assistantId,
    name: v.name,
    headerText: v.headerText,
    welcomeMessage: v.welcomeMessage,
    starterQuestions: cleanStarterQuestions(v.starterQuestions),
    primaryColor: v.primaryColor.trim(),
    position: v.widgetPosition,
    size: v.widgetSize,
    allowAttachments: v.allowAttachments,
    showSources: v.showSources,
    theme: v.theme,
    language: v.language,
    availabilityLine: v.availabilityLine,
    // Uploaded at once (not a form value): the saved one.
    avatarUrl: saved.avatarUrl,
    contactLine: v.contactLine,
    ...privacyNoticeOf({ privacyNotice: v.privacyNotice.trim(), privacyUrl: v.privacyUrl.trim() }),
  };
}

/** The widget's privacy line, carried only when set (as GET /api/widget/config does). */
function privacyNoticeOf(c: { privacyNotice: string; privacyUrl: string }): Pick<PlaygroundConfig, "privacyNotice" | "privacyUrl"> {
  return { ...(c.privacyNotice ? { privacyNotice: c.privacyNotice } : {}), ...(c.privacyUrl ? { privacyUrl: c.privacyUrl } : {}) };
}

/** True when the widget would look or behave differently from the saved one. */
export function widgetConfigDiffers(a: PlaygroundConfig, b: PlaygroundConfig): boolean {
  // Compared as JSON: the starter questions are a list.
  // Over both sides' keys: a field carried only when set (the privacy line) may be on one side only.
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof PlaygroundConfig)[]);
  return [...keys].some((k) => k !== "name" && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** The playground endpoint's URL, for the widget's playground transport. */
export const playgroundUrl = (assistantId: string) => `${api.basePath}${playgroundPath(assistantId)}`;

/**
 * The height of the framed page for a panel size: the panel, its gap above the launcher (88 px)
 * and a margin, so the open widget fits (styles.ts: .p sizes, --y offsets).
 */
export const stageHeight: Record<PlaygroundConfig["size"], number> = { small: 580, medium: 680, large: 800 };
