import { chatMessages, guestSession, serverMessages, userRoomId } from "../../../contract";
import { TOKEN_PREFIX } from "../../crypto/random";
import { AppError, unauthorized } from "../../http/errors";
import { authenticateFirebaseUser } from "../auth/authenticate-firebase-user";
import { authenticateToken } from "../auth/authenticate-token";
import type { RoomIdentity } from "../../chat/room-identity";
import type { ServiceContext } from "../context";

export interface AuthenticateRoomInput {
  roomId: string;
  /** `?token=`: a Tala token (`tala_…`) or a Firebase ID token, as the dashboard stores them. */
  token?: string | undefined;
  /** `?guestSessionId=`: guest-{timestamp}-{random}. */
  guestSessionId?: string | undefined;
  ip: string;
}

/**
 * Decides who may open a chat room's socket, before the room is touched. A signed-in user may
 * only open `user-<their id>`, a guest only the room named by their own guest id. No credential
 * or an unusable one → 401; someone else's room → 403.
 */
export async function authenticateRoom({ ctx, input }: { ctx: ServiceContext; input: AuthenticateRoomInput }): Promise<RoomIdentity> {
  const forbidden = () => new AppError("FORBIDDEN", chatMessages.wrongRoom);
  if (input.token) {
    if (input.token.startsWith(TOKEN_PREFIX)) {
      const { user, tokenId } = await authenticateToken({ ctx, input: { token: input.token } });
      if (input.roomId !== userRoomId(user.id)) throw forbidden();
      // The token's id travels to the room: a revocation names it (ChatRoom.revokeTokens).
      return { kind: "user", userId: user.id, tokenId, emailVerified: user.isEmailVerified, ip: input.ip };
    }
    const { user } = await authenticateFirebaseUser({ ctx, input: { idToken: input.token } });
    if (input.roomId !== userRoomId(user.id)) throw forbidden();
    return { kind: "user", userId: user.id, emailVerified: user.isEmailVerified, ip: input.ip };
  }
  if (input.guestSessionId) {
    if (!guestSession.idPattern.test(input.guestSessionId)) throw unauthorized(chatMessages.guestIdInvalid);
    if (input.roomId !== input.guestSessionId) throw forbidden();
    return { kind: "guest", guestId: input.guestSessionId, ip: input.ip };
  }
  throw unauthorized(serverMessages.authRequired);
}
