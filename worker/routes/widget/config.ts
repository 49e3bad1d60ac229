import { Hono } from "hono";
import type { LeadForm, WidgetConfigResponse } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { keyHeader, widgetCaller } from "./caller";

/**
 * GET /config → what the widget needs to draw itself: looks (colour, theme, language, avatar,
 * availability line), the contact line, the privacy notice, starter questions, limits, whether it
 * shows sources and takes files. All from the assistant's row the key check already read.
 */
export const widgetConfigRoute = new Hono<AppEnv>().get("/config", async (c) => {
  const { assistant } = await widgetCaller(c, keyHeader(c));
  const body: WidgetConfigResponse = {
    assistant: {
      id: assistant.id,
      name: assistant.name,
      headerText: assistant.config.customization.headerText,
      welcomeMessage: assistant.config.customization.welcomeMessage,
      starterQuestions: assistant.config.customization.starterQuestions,
      primaryColor: assistant.config.customization.primaryColor,
      position: assistant.integration.widgetPosition,
      size: assistant.integration.widgetSize,
      allowAttachments: assistant.config.allowAttachments,
      showSources: assistant.showSources,
      theme: assistant.config.customization.theme,
      language: assistant.config.customization.language,
      availabilityLine: assistant.config.customization.availabilityLine,
      avatarUrl: assistant.config.customization.avatarUrl,
      contactLine: assistant.config.customization.contactLine,
      handoff: {
        visitorAction: assistant.config.handoff.visitorAction,
        businessHours: assistant.config.handoff.businessHours,
        replyTime: assistant.config.handoff.replyTime,
        emailAfterMinutes: assistant.config.handoff.emailAfterMinutes,
      },
      ...widgetLeadForm(assistant.config.leadForm),
      ...privacyNotice(assistant.config.customization),
    },
    limits: { maxMessagesPerSession: assistant.config.maxMessagesPerSession, dailyLimit: assistant.config.dailyLimit },
  };
  // Settings change in the dashboard at any time: never cached.
  c.header("cache-control", "no-store");
  return c.json(body);
});

/** The owner's lead form as the widget shows it, only when it is on (schemas/leads.ts `widgetLeadFormSchema`). */
function widgetLeadForm(form: LeadForm): Pick<WidgetConfigResponse["assistant"], "leadForm"> {
  if (!form.enabled) return {};
  const { enabled: _enabled, emailOwner: _emailOwner, ...shown } = form;
  return { leadForm: shown };
}

/** The owner's privacy line and policy link, each only when set (validated on PUT: schemas/privacy.ts); nothing for a widget without them. */
function privacyNotice(c: { privacyNotice?: string; privacyUrl?: string }): Pick<WidgetConfigResponse["assistant"], "privacyNotice" | "privacyUrl"> {
  return { ...(c.privacyNotice ? { privacyNotice: c.privacyNotice } : {}), ...(c.privacyUrl ? { privacyUrl: c.privacyUrl } : {}) };
}
