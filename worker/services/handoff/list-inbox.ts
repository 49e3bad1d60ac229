import { type InboxFilter, type InboxResponse } from "../../../contract";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { ownedConversation, unlessGoneOr404 } from "./owned-conversation";

/** GET …/inbox?filter=&page=: the owner's live inbox of one assistant, latest activity first, with its counts. */
export async function listInbox({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string; filter: InboxFilter; page: number } }): Promise<InboxResponse> {
  const assistant = await ownedConversation({ ctx, input });
  return unlessGoneOr404(await reachAssistantHub(ctx.env, assistant.id).handoff().inbox({ filter: input.filter, page: input.page }));
}
