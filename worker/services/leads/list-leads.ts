import type { LeadsResponse } from "../../../contract";
import { isGone } from "../../assistant/gone";
import { assistantHubUnavailable, reachAssistantHub } from "../../durable-objects/stubs";
import { notFound } from "../../http/errors";
import { publicAssistantServerMessages } from "../../../contract";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";

/**
 * GET /api/public-assistants/:id/leads?page=&q=: a page of the leads visitors left, newest first,
 * `q` looked for in every value (any case). Ownership is checked in D1 (another owner's assistant
 * is a 404); the leads live in the assistant's object (facet `leads()`).
 */
export async function listLeads({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string; page: number; q: string } }): Promise<LeadsResponse> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const result = await reachAssistantHub(ctx.env, assistant.id).leads().list({ page: input.page, q: input.q });
  if (isGone(result)) throw notFound();
  if ("ok" in result) throw assistantHubUnavailable(assistant.id, "leads", result.reason, publicAssistantServerMessages.assistantBusy);
  return result;
}
