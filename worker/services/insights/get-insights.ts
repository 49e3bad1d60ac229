import { isGone } from "../../assistant/gone";
import { publicAssistantServerMessages, type InsightsResponse } from "../../../contract";
import { notFound } from "../../http/errors";
import { assistantHubUnavailable, reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";

/**
 * GET /api/public-assistants/:id/insights?days=: the owner's insights over the last `days` UTC
 * days. Ownership is checked in D1 (another owner's assistant is a 404); the counts live in the
 * assistant's own object, which answers a retryable 503 when it cannot be reached.
 */
export async function getInsights({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; days: number };
}): Promise<InsightsResponse> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const result = await reachAssistantHub(ctx.env, assistant.id).insights().read(input.days);
  // Deleted since the D1 read: as for a missing assistant.
  if (isGone(result)) throw notFound();
  if (result.ok) return result.insights;
  // The object's storage failed (it logged why): the same retryable 503 as an object that does not answer.
  throw assistantHubUnavailable(assistant.id, "insights", result.reason, publicAssistantServerMessages.assistantBusy);
}
