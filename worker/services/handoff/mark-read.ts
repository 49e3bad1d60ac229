import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { conversationNotFound, ownedConversation, unlessGoneOr404 } from "./owned-conversation";

/** POST …/chats/:sessionId/read: the owner read the conversation (its unread count goes back to 0). */
export async function markConversationRead({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string; sessionId: string } }): Promise<void> {
  const assistant = await ownedConversation({ ctx, input });
  const result = unlessGoneOr404(await reachAssistantHub(ctx.env, assistant.id).handoff().markRead(input.sessionId));
  if (!result.ok) throw conversationNotFound();
}
