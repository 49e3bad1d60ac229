import { and, eq, isNull } from "drizzle-orm";
import { sha256Hex } from "../../crypto/hash";
import { authTokens } from "../../db/schema";
import type { Db } from "../../db/client";
import type { ServiceContext } from "../context";
import { revokeChatSockets } from "../realtime/revoke-chat-sockets";

/** What a revocation statement returns: what the user's chat room needs to close their sockets. */
const revokedColumns = { id: authTokens.id, userId: authTokens.userId, expiresAt: authTokens.expiresAt };

/** The statement revoking every live token of a user, for a caller's batch; it returns the revoked tokens. */
export const revokeAllTokensStatement = (db: Db, userId: string, now = Date.now()) =>
  db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(eq(authTokens.userId, userId), isNull(authTokens.revokedAt)))
    .returning(revokedColumns);

/**
 * Revokes one presented token (logout), then closes the chat sockets it opened (only those: the
 * user's other sessions stay). Unknown or already revoked tokens are a no-op.
 */
export async function revokeToken({ ctx, input }: { ctx: ServiceContext; input: { token: string } }): Promise<void> {
  const revoked = await ctx.db
    .update(authTokens)
    .set({ revokedAt: Date.now() })
    .where(and(eq(authTokens.tokenHash, await sha256Hex(input.token)), isNull(authTokens.revokedAt)))
    .returning(revokedColumns);
  for (const { userId, id, expiresAt } of revoked) {
    await revokeChatSockets({ ctx, input: { userId, tokens: [{ id, expiresAt }] } });
  }
}
