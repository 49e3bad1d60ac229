import { unlessGone } from "../../assistant/gone";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { recordAudit, type AuditActor } from "../team/audit";
import { checkConversationId } from "./visitor-id";

/**
 * DELETE …/chats/:sessionId: one conversation of the owner's assistant and everything that points
 * at it (its messages, ratings, handoff, leads, inbox leases, unsent webhook events, Insights'
 * links), in the assistant's object (assistant/privacy-store.ts); its open widget sockets close.
 * Idempotent: a conversation that is not there (deleted already) deletes nothing and still
 * succeeds. Recorded (`conversation.deleted`) when something was deleted. Another owner's
 * assistant is a 404.
 */
export async function deleteConversation({ ctx, input }: { ctx: ServiceContext; input: { userId: string; actor: AuditActor; assistantId: string; sessionId: string } }): Promise<void> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const sessionId = checkConversationId(input.sessionId);
  const deleted = unlessGone(await reachAssistantHub(ctx.env, assistant.id).privacy().deleteConversation(sessionId), null);
  if (!deleted || deleted.deletedConversations + deleted.deletedLeads === 0) return;
  await recordAudit(ctx, {
    workspaceId: assistant.userId,
    actor: input.actor,
    action: "conversation.deleted",
    assistant: { id: assistant.id, name: assistant.name },
    target: sessionId,
    details: { messages: deleted.deletedMessages, leads: deleted.deletedLeads },
  });
}
