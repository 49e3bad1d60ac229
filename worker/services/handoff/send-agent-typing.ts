import { handoffMessages } from "../../../contract";
import { AppError } from "../../http/errors";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { deliverToVisitor } from "../realtime/deliver-to-visitor";
import { conversationNotFound, ownedConversation, unlessGoneOr404 } from "./owned-conversation";

/** POST …/chats/:sessionId/typing { typing }: the visitor sees the person type (only while taken over: 409 otherwise). */
export async function sendAgentTyping({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string; sessionId: string; typing: boolean } }): Promise<void> {
  const assistant = await ownedConversation({ ctx, input });
  const result = unlessGoneOr404(await reachAssistantHub(ctx.env, assistant.id).handoff().agentTyping(input.sessionId));
  if (!result.ok) {
    if (result.reason === "not-taken") throw new AppError("CONFLICT", handoffMessages.notTakenOver);
    throw conversationNotFound();
  }
  await deliverToVisitor(ctx.env, input.sessionId, { event: "typing", data: { chatId: input.sessionId, typing: input.typing, ...(result.name ? { name: result.name } : {}) } });
}
