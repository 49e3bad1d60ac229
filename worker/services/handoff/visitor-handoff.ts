import { handoffMessages, widgetMessages, type WidgetHandoffBody } from "../../../contract";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { AppError, rateLimited, unauthorized } from "../../http/errors";
import { afterResponse, type ServiceContext } from "../context";
import { consumeIpMessage } from "../ip-throttle";
import { retryAfterSeconds } from "../rate-limit";
import { emailOwnerOfRequest } from "./handoff-emails";
import { tellHandoff } from "./tell-handoff";

type VisitorInput = { assistantId: string; sessionId: string; visitorToken?: string | undefined };

/** Maps the hub's refusal of a visitor's handoff call to its HTTP error. */
function refusal(result: { ok: false; reason?: string; identity?: string }): AppError {
  if (result.identity) return unauthorized(result.identity);
  if (result.reason === "off") return new AppError("FORBIDDEN", handoffMessages.handoffOff);
  return new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
}

/**
 * POST /api/widget/sessions/:id/handoff { email? } (the caller's key and Origin authorised): the
 * visitor asks for a person, or leaves the address for the reply. The per-IP message throttle
 * applies (429); 403 handoffOff unless the owner offers it or the assistant offered it in this
 * conversation; a signed visitor's session needs their token (401). The owner's rooms are always
 * told; the owner's e-mail (when due) goes after the response, linking the conversation.
 */
export async function requestHandoff({ ctx, input }: { ctx: ServiceContext; input: VisitorInput & WidgetHandoffBody & { ip: string; appOrigin: string } }) {
  const throttle = await consumeIpMessage(ctx.env, input.ip);
  if (!throttle.allowed) throw rateLimited(retryAfterSeconds(throttle));
  const result = await reachAssistantHub(ctx.env, input.assistantId, widgetMessages.assistantUnreachable).handoff().request({
    sessionId: input.sessionId,
    email: input.email,
    visitorToken: input.visitorToken,
  });
  if ("gone" in result) throw unauthorized(widgetMessages.unavailable);
  if (!result.ok) throw refusal(result);
  await tellHandoff(ctx.env, result.told);
  const { email } = result;
  if (email) {
    await afterResponse(ctx, "handoff-owner-email-failed", () => emailOwnerOfRequest(ctx, { ...email, assistantId: input.assistantId, sessionId: input.sessionId, appOrigin: input.appOrigin }), {
      sessionId: input.sessionId,
    });
  }
  return { handoff: result.handoff };
}

/** DELETE /api/widget/sessions/:id/handoff: back to the assistant while nobody took the conversation (a taken one stays taken). */
export async function cancelHandoff({ ctx, input }: { ctx: ServiceContext; input: VisitorInput }) {
  const result = await reachAssistantHub(ctx.env, input.assistantId, widgetMessages.assistantUnreachable).handoff().cancel({ sessionId: input.sessionId, visitorToken: input.visitorToken });
  if ("gone" in result) throw unauthorized(widgetMessages.unavailable);
  if (!result.ok) throw refusal(result);
  await tellHandoff(ctx.env, result.told);
  return { handoff: result.handoff };
}
