import type { VisitorDeletion } from "../../../contract";
import { unlessGone } from "../../assistant/gone";
import { addCounts, noDeletion } from "../../assistant/privacy-store";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { recordAudit, type AuditActor } from "../team/audit";
import { checkVisitorId } from "./visitor-id";

/**
 * DELETE …/visitors/:visitorId: everything of one visitor (a signed visitor's `sub`: all their
 * conversations and leads; else the anonymous visitor of the conversation with that id: it and its
 * lead), one batch of `privacyLimits.visitorBatchSessions` conversations per call of the
 * assistant's object until none is left, so the object serves visitors between batches. Answers
 * what was deleted; zeros when nothing was left (idempotent). Recorded (`visitor.deleted`, with
 * the counts) when something was deleted. 400 `visitorIdInvalid`; another owner's assistant: 404.
 */
export async function deleteVisitor({ ctx, input }: { ctx: ServiceContext; input: { userId: string; actor: AuditActor; assistantId: string; visitorId: string } }): Promise<VisitorDeletion> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const visitorId = checkVisitorId(input.visitorId);
  const hub = reachAssistantHub(ctx.env, assistant.id);
  let total = noDeletion();
  for (;;) {
    const batch = unlessGone(await hub.privacy().deleteVisitorBatch(visitorId), null);
    if (!batch) break;
    total = addCounts(total, batch.deleted);
    if (batch.done) break;
  }
  if (total.deletedConversations + total.deletedLeads > 0) {
    await recordAudit(ctx, {
      workspaceId: assistant.userId,
      actor: input.actor,
      action: "visitor.deleted",
      assistant: { id: assistant.id, name: assistant.name },
      target: visitorId,
      details: { ...total },
    });
  }
  return total;
}
