import type { VisitorSessionResponse } from "../../../contract";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { conversationNotFound, ownedConversation, unlessGoneOr404 } from "./owned-conversation";
import { tellHandoff } from "./tell-handoff";

/** DELETE …/chats/:sessionId/takeover: back to the assistant (from requested or taken); the visitor and the owners' rooms are told. */
export async function handBackConversation({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string; sessionId: string } }): Promise<VisitorSessionResponse> {
  const assistant = await ownedConversation({ ctx, input });
  const result = unlessGoneOr404(await reachAssistantHub(ctx.env, assistant.id).handoff().handBack(input.sessionId));
  if (!result.ok) throw conversationNotFound();
  await tellHandoff(ctx.env, result.told);
  return { session: result.session };
}
