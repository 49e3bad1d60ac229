import { widgetMessages } from "../../../contract";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { unauthorized } from "../../http/errors";
import type { ServiceContext } from "../context";
import { tellHandoff } from "./tell-handoff";
import { visitorHandoffRefusal, type VisitorHandoffInput } from "./visitor-handoff-refusal";

/** DELETE /api/widget/sessions/:id/handoff: back to the assistant while nobody took the conversation (a taken one stays taken). */
export async function cancelHandoff({ ctx, input }: { ctx: ServiceContext; input: VisitorHandoffInput }) {
  const result = await reachAssistantHub(ctx.env, input.assistantId, widgetMessages.assistantUnreachable).handoff().cancel({ sessionId: input.sessionId, visitorToken: input.visitorToken });
  if ("gone" in result) throw unauthorized(widgetMessages.unavailable);
  if (!result.ok) throw visitorHandoffRefusal(result);
  await tellHandoff(ctx.env, result.told);
  return { handoff: result.handoff };
}
