/**
 * The first-hour checklist's steps, each ticked from real state: knowledge (files, website sources
 * or curated answers exist), appearance changed from the defaults, a Playground message sent (the
 * server's record), the snippet copied or a visitor already come (the widget is on a site), and a
 * first visitor session. Pure, unit-tested.
 */
import { onboardingSteps, publicAssistantDefaults as D, type OnboardingStep, type PublicAssistant } from "../../../../contract";

export interface KnowledgeCounts {
  /** Website sources and curated answers; null while unknown (the files alone then decide). */
  sources: number | null;
  qa: number | null;
}

/** True when anything the widget shows differs from what a new assistant starts with. */
export function appearanceChanged(assistant: PublicAssistant): boolean {
  const c = assistant.config.customization;
  const d = D.config.customization;
  return (
    c.primaryColor.toUpperCase() !== d.primaryColor.toUpperCase() ||
    c.headerText !== d.headerText ||
    c.welcomeMessage !== d.welcomeMessage ||
    c.starterQuestions.length > 0 ||
    c.theme !== d.theme ||
    c.language !== d.language ||
    c.availabilityLine !== d.availabilityLine ||
    c.avatarUrl !== d.avatarUrl ||
    assistant.integration.widgetPosition !== D.integration.widgetPosition ||
    assistant.integration.widgetSize !== D.integration.widgetSize
  );
}

export function onboardingProgress(assistant: PublicAssistant, counts: KnowledgeCounts): Record<OnboardingStep, boolean> {
  const record = assistant.config.onboarding;
  const visitors = assistant.stats.totalSessions > 0;
  return {
    knowledge: assistant.files.length > 0 || (counts.sources ?? 0) > 0 || (counts.qa ?? 0) > 0,
    customise: appearanceChanged(assistant),
    playground: record.playgroundAt !== null,
    install: record.snippetCopiedAt !== null || visitors,
    visitor: visitors,
  };
}

/** What the page shows: the checklist, the link that brings it back, or nothing once every step is done. */
export function checklistState(assistant: PublicAssistant, progress: Record<OnboardingStep, boolean>): "open" | "hidden" | "done" {
  if (onboardingSteps.every((s) => progress[s])) return "done";
  return assistant.config.onboarding.dismissedAt === null ? "open" : "hidden";
}
