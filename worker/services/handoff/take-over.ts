import type { User, VisitorSessionResponse } from "../../../contract";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { authorOf, conversationNotFound, ownedConversation, unlessGoneOr404 } from "./owned-conversation";
import { tellHandoff } from "./tell-handoff";

/**
 * POST …/chats/:sessionId/takeover: the owner takes the conversation (from none or requested) and
 * the assistant pauses for it; the visitor sees the person join (their name, initials, photo), the
 * owners' rooms are told. Taking it again is a no-op that renews the name and photo.
 */
export async function takeOverConversation({ ctx, input }: { ctx: ServiceContext; input: { user: User; assistantId: string; sessionId: string } }): Promise<VisitorSessionResponse> {
  const assistant = await ownedConversation({ ctx, input: { userId: input.user.id, assistantId: input.assistantId, sessionId: input.sessionId } });
  const result = unlessGoneOr404(
    await reachAssistantHub(ctx.env, assistant.id).handoff().takeOver({ sessionId: input.sessionId, agent: { author: authorOf(input.user), userId: input.user.id } }),
  );
  if (!result.ok) throw conversationNotFound();
  await tellHandoff(ctx.env, result.told);
  return { session: result.session };
}
