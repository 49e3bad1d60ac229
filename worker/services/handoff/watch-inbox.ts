import { handoffLimits, userRoomId } from "../../../contract";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { ownedConversation, unlessGoneOr404 } from "./owned-conversation";

/**
 * POST …/inbox/watch { sessionId? }: the owner's chat room (`user-<id>`) is told of every visitor
 * message of this assistant, and with `sessionId` gets that conversation's reply as it is written,
 * for handoffLimits.watchLeaseMs (the Inbox renews it while it is on screen). The guard's
 * `checkedAt` goes with it: a watch whose role was read before the room's access was revoked
 * (a removal racing it) adds no lease.
 */
export async function watchInbox({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string; sessionId?: string | undefined } }): Promise<void> {
  const assistant = await ownedConversation({ ctx, input });
  unlessGoneOr404(
    await reachAssistantHub(ctx.env, assistant.id)
      .handoff()
      .watch({ room: userRoomId(input.userId), sessionId: input.sessionId, until: Date.now() + handoffLimits.watchLeaseMs, checkedAt: ctx.access?.checkedAt }),
  );
}
