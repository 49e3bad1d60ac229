import { leadLimits, leadMessages, widgetMessages, type LeadSubmitResponse, type LeadTrigger } from "../../../contract";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { AppError, invalid, rateLimited, unauthorized } from "../../http/errors";
import { afterResponse, type ServiceContext } from "../context";
import { tellHandoff } from "../handoff/tell-handoff";
import { consumeIpMessage } from "../ip-throttle";
import { retryAfterSeconds } from "../rate-limit";
import { emailOwnerOfLead } from "./lead-emails";

/**
 * POST /api/widget/sessions/:id/lead { fields, trigger? } (the caller's key and Origin
 * authorised): a visitor leaves their details through the owner's form. The per-IP message
 * throttle applies (429); the assistant's object checks the session (this assistant's, open; a
 * signed visitor's needs their token: 401), the form (off: 403), the conversation's count
 * (leadLimits.maxLeadsPerSession: 429) and every value against the form as it is now (400 naming
 * the field), then saves it. When it set the address for a person's reply, the visitor and the
 * owners are told; the owner's e-mail (when due) goes after the response.
 */
export async function submitLead({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { assistantId: string; sessionId: string; fields: Record<string, unknown>; trigger?: LeadTrigger | undefined; visitorToken?: string | undefined; ip: string; appOrigin: string };
}): Promise<LeadSubmitResponse> {
  const throttle = await consumeIpMessage(ctx.env, input.ip);
  if (!throttle.allowed) throw rateLimited(retryAfterSeconds(throttle));
  const result = await reachAssistantHub(ctx.env, input.assistantId, widgetMessages.assistantUnreachable).leads().submit({
    sessionId: input.sessionId,
    fields: input.fields,
    trigger: input.trigger,
    visitorToken: input.visitorToken,
  });
  if ("gone" in result) throw unauthorized(widgetMessages.unavailable);
  if (!result.ok) {
    if ("identity" in result) throw unauthorized(result.identity);
    if ("invalid" in result) throw invalid(result.invalid, { [result.field === "fields" ? "fields" : `fields.${result.field}`]: result.invalid });
    if (result.reason === "off") throw new AppError("FORBIDDEN", leadMessages.formOff);
    if (result.reason === "too-many") throw new AppError("RATE_LIMITED", leadMessages.tooManyLeads(leadLimits.maxLeadsPerSession));
    throw new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
  }
  await tellHandoff(ctx.env, result.told);
  const { email, lead } = result;
  if (email) {
    await afterResponse(ctx, "lead-owner-email-failed", () => emailOwnerOfLead(ctx, { ...email, assistantId: input.assistantId, lead, appOrigin: input.appOrigin }), {
      sessionId: input.sessionId,
    });
  }
  return { lead: { id: lead.id, createdAt: lead.createdAt } };
}
