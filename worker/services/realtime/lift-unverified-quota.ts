import { userRoomId } from "../../../contract";
import { getChatRoom } from "../../durable-objects/stubs";
import type { Env } from "../../env";

/**
 * Tells a user's chat room that the account's e-mail is now verified, so its daily quota for
 * unverified accounts is lifted at once, for the sockets already open too (ChatRoom.emailVerified).
 * Called after the verification committed in D1: a room failure must not fail that call, so it is
 * logged, never thrown; the next socket carries the verified identity and the room learns it then.
 */
export async function liftUnverifiedQuota({ ctx, input }: { ctx: { env: Pick<Env, "CHAT_ROOM"> }; input: { userId: string } }): Promise<void> {
  try {
    await getChatRoom(ctx.env, userRoomId(input.userId)).emailVerified();
  } catch (error) {
    console.error(JSON.stringify({ event: "chat-quota-lift-failed", userId: input.userId, error: String(error) }));
  }
}
