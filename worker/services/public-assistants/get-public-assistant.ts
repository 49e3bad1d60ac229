import type { PublicAssistant } from "../../../contract";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { assistantWorkspace } from "./find-public-assistant";
import { loadPublicAssistants, withCardStats } from "./list-public-assistants";

/**
 * One assistant of the caller's workspace as the list shows it; 404 for another workspace's or a
 * missing one. On a guarded request it is the row the guard loaded (no second D1 query).
 */
export async function getPublicAssistant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
}): Promise<PublicAssistant> {
  const loaded = ctx.access?.assistant?.id === input.assistantId ? ctx.access.assistant : null;
  const [assistant] = loaded ? await withCardStats(ctx, [loaded]) : await loadPublicAssistants(ctx, assistantWorkspace(ctx, input), input.assistantId);
  if (!assistant) throw notFound();
  return assistant;
}
