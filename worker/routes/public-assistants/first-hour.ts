import { Hono } from "hono";
import { onboardingEventBody, type AssistantAvatarResponse } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { removeAssistantAvatar, setAssistantAvatar } from "../../services/first-hour/assistant-avatar";
import { readAvatarUpload } from "../../services/first-hour/avatar-image";
import { requirePublicAssistant } from "../../services/public-assistants/find-public-assistant";
import { recordOnboardingEvent } from "../../services/first-hour/onboarding";

/** The owner's first hour: the avatar or logo, and the checklist's record. */
export const firstHourRoutes = new Hono<AppEnv>()
  /**
   * PUT /:id/avatar (raw image body, or multipart field `file`) → { avatarUrl }: PNG, JPEG or WebP by
   * its bytes (415 otherwise), at most assistantAvatar.maxBytes (413).
   */
  .put("/:id/avatar", async (c) => {
    const ctx = serviceContext(c);
    const input = { userId: c.var.user.id, assistantId: c.req.param("id") };
    // Ownership first: another owner's upload is refused before its body is read.
    await requirePublicAssistant({ ctx, input });
    const image = await readAvatarUpload(c.req.raw);
    const body: AssistantAvatarResponse = await setAssistantAvatar({ ctx, input: { ...input, ...image, origin: new URL(c.req.url).origin } });
    return c.json(body);
  })
  /** DELETE /:id/avatar → { avatarUrl: "" }; the stored image is gone. */
  .delete("/:id/avatar", async (c) => {
    const body: AssistantAvatarResponse = await removeAssistantAvatar({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id") } });
    return c.json(body);
  })
  /** POST /:id/onboarding { event: "snippetCopied" | "dismissed" | "restored" } → { onboarding }. */
  .post("/:id/onboarding", jsonBody(onboardingEventBody), async (c) => {
    const onboarding = await recordOnboardingEvent({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, assistantId: c.req.param("id"), event: c.req.valid("json").event },
    });
    return c.json({ onboarding });
  });
