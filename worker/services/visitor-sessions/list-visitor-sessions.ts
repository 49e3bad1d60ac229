import { unlessGone } from "../../assistant/gone";
import type { ChatHistoryResponse } from "../../../contract";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";

/**
 * GET …/chats: the assistant's visitor sessions with their messages, newest activity first,
 * `limit` per page; with `user`, only that verified visitor's (the token's sub). Ownership is checked in D1; the history lives in the assistant's own object.
 */
export async function listVisitorSessions({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; page: number; limit: number; user?: string | undefined };
}): Promise<ChatHistoryResponse> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const page = await reachAssistantHub(ctx.env, assistant.id).history().list({ page: input.page, limit: input.limit, user: input.user });
  return unlessGone(page, { sessions: [], totalPages: 1, currentPage: input.page, total: 0 });
}
