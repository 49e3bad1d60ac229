import { unlessGone } from "../../assistant/gone";
import { widget, type VisitorSessionResponse } from "../../../contract";
import { notFound } from "../../http/errors";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";

/**
 * GET …/chats/:sessionId: one visitor session of the owner's assistant with all its messages, open
 * or not, wherever it falls in the history's pages (the assistant page opens a conversation by id).
 * Another owner's assistant, or a session that is not this assistant's, is a 404.
 */
export async function getVisitorSession({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; sessionId: string };
}): Promise<VisitorSessionResponse> {
  const assistant = await requirePublicAssistant({ ctx, input });
  // No visitor session id is longer: such a path names nothing, and the object need not be asked.
  if (input.sessionId.length > widget.maxSessionIdChars) throw notFound();
  const session = unlessGone(await reachAssistantHub(ctx.env, assistant.id).history().session(input.sessionId), null);
  if (!session) throw notFound();
  return { session };
}
