import type { PublicAssistant } from "../../../contract";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { loadPublicAssistants } from "./list-public-assistants";

/** One of the owner's assistants as the list shows it; 404 for another owner's or a missing one. */
export async function getPublicAssistant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
}): Promise<PublicAssistant> {
  const [assistant] = await loadPublicAssistants(ctx, input.userId, input.assistantId);
  if (!assistant) throw notFound();
  return assistant;
}
