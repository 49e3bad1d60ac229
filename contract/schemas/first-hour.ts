/**
 * The owner's first hour with an assistant: its avatar or logo (uploaded, served to the widget)
 * and the onboarding checklist's record of what only the dashboard sees happen (a Playground
 * message, the snippet copied, the checklist dismissed). The checklist's other steps read state the
 * server already has (knowledge, settings, visitor sessions).
 */
import { z } from "zod";
import { validationMessages } from "../validation";

/** PUT/DELETE /api/public-assistants/{id}/avatar (raw image body, or multipart field `file`). */
export const assistantAvatarPath = (assistantId: string) => `/public-assistants/${encodeURIComponent(assistantId)}/avatar`;
/** GET: the stored image, public (the widget loads it on other sites); `version` changes with every upload. */
export const widgetAvatarPath = (assistantId: string, version: string) =>
  `/widget/avatar/${encodeURIComponent(assistantId)}/${encodeURIComponent(version)}`;

/** PUT …/avatar → the URL now in `config.customization.avatarUrl`; DELETE → `""`. */
export const assistantAvatarResponse = z.object({ avatarUrl: z.string() });
export type AssistantAvatarResponse = z.infer<typeof assistantAvatarResponse>;

/**
 * `config.onboarding`: when each step only the dashboard sees first happened (epoch ms, null: not
 * yet). Written by the server only: the Playground route, and POST …/onboarding.
 */
export const onboardingRecordSchema = z.object({
  playgroundAt: z.number().nullable().default(null),
  snippetCopiedAt: z.number().nullable().default(null),
  /** The owner closed the checklist; null again when they bring it back. */
  dismissedAt: z.number().nullable().default(null),
});
export type OnboardingRecord = z.infer<typeof onboardingRecordSchema>;
export const emptyOnboardingRecord = (): OnboardingRecord => ({ playgroundAt: null, snippetCopiedAt: null, dismissedAt: null });

export const onboardingEvents = ["snippetCopied", "dismissed", "restored"] as const;
export type OnboardingEvent = (typeof onboardingEvents)[number];
/** POST /api/public-assistants/{id}/onboarding { event } → { onboarding }. */
export const onboardingPath = (assistantId: string) => `/public-assistants/${encodeURIComponent(assistantId)}/onboarding`;
export const onboardingEventBody = z.object({
  event: z.enum(onboardingEvents, { error: validationMessages.oneOf("event", onboardingEvents) }),
});
export const onboardingResponse = z.object({ onboarding: onboardingRecordSchema });

/** The checklist's steps, in order. */
export const onboardingSteps = ["knowledge", "customise", "playground", "install", "visitor"] as const;
export type OnboardingStep = (typeof onboardingSteps)[number];
