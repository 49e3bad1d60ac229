import { userRoomId } from "../../../contract";
import { getChatRoom } from "../../durable-objects/stubs";
import type { RevokedToken } from "../../chat/token-revocations";
import type { Env } from "../../env";

/**
 * Tells a user's chat room that tokens were revoked, so the sockets they opened close now
 * (ChatRoom.revokeTokens). Called after the revocation committed in D1: a room failure must not
 * fail the REST call that already committed, so it is logged, never thrown. The D1 revocation
 * still stands; the room refuses the next socket the worker authenticates against D1.
 */
export async function revokeChatSockets({
  ctx,
  input,
}: {
  ctx: { env: Pick<Env, "CHAT_ROOM"> };
  input: { userId: string; tokens: RevokedToken[]; replacedTokenId?: string | undefined; everyConnection?: boolean; keepWorkspace?: boolean };
}): Promise<void> {
  const { userId, ...revocation } = input;
  if (revocation.tokens.length === 0 && !revocation.everyConnection) return;
  try {
    await getChatRoom(ctx.env, userRoomId(userId)).revokeTokens({
      tokens: revocation.tokens,
      ...(revocation.replacedTokenId ? { replacedTokenId: revocation.replacedTokenId } : {}),
      ...(revocation.everyConnection ? { everyConnection: true } : {}),
      ...(revocation.keepWorkspace ? { keepWorkspace: true } : {}),
    });
  } catch (error) {
    console.error(JSON.stringify({ event: "chat-socket-revocation-failed", userId, error: String(error) }));
  }
}
