import { handoffMessages, type User, type VisitorMessage } from "../../../contract";
import { AppError } from "../../http/errors";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { relayInbox } from "../../widget/inbox-relay";
import { afterResponse, type ServiceContext } from "../context";
import { deliverToVisitor } from "../realtime/deliver-to-visitor";
import { emailVisitorOfReply } from "./handoff-emails";
import { authorOf, conversationNotFound, ownedConversation, unlessGoneOr404 } from "./owned-conversation";

/**
 * POST …/chats/:sessionId/messages { content }: a person's message (role "agent", with the
 * owner's name and photo), only while the conversation is taken over (409 otherwise). It counts
 * against no limit; the visitor's room gets it at once (sockets and event streams), the owners'
 * rooms watching are told, and a visitor who left (no socket or stream open) with an address gets
 * an e-mail, at most one per conversation per handoffLimits.emailIntervalMs.
 */
export async function sendAgentMessage({ ctx, input }: { ctx: ServiceContext; input: { user: User; assistantId: string; sessionId: string; content: string } }): Promise<VisitorMessage> {
  const assistant = await ownedConversation({ ctx, input: { userId: input.user.id, assistantId: input.assistantId, sessionId: input.sessionId } });
  const result = unlessGoneOr404(
    await reachAssistantHub(ctx.env, assistant.id).handoff().agentMessage({ sessionId: input.sessionId, content: input.content, author: authorOf(input.user) }),
  );
  if (!result.ok) {
    if (result.reason === "not-taken") throw new AppError("CONFLICT", handoffMessages.notTakenOver);
    throw conversationNotFound();
  }
  await deliverToVisitor(ctx.env, input.sessionId, { event: "new-message", data: { message: result.widgetMessage } });
  await relayInbox(ctx.env, result.relay);
  const { email } = result;
  if (email) await afterResponse(ctx, "handoff-visitor-email-failed", () => emailVisitorOfReply(ctx, { ...email, reply: input.content }), { sessionId: input.sessionId });
  return result.message;
}
