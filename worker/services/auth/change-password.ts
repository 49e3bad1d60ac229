import { eq } from "drizzle-orm";
import { serverMessages, type AuthResponse } from "../../../contract";
import { hashPassword } from "../../crypto/password";
import { writeBatch } from "../../db/client";
import { authTokens, users } from "../../db/schema";
import { invalid, notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { checkPassword } from "./check-password";
import { findUser } from "./find-user";
import { prepareToken } from "./issue-token";
import { revokeChatSockets } from "../realtime/revoke-chat-sockets";
import { revokeAllTokensStatement } from "./revoke-tokens";
import { toUser } from "./to-user";

/**
 * Changes the password after re-checking the current one, signs out every session, and hands
 * this client a fresh token. The new hash, the revocation and the new token commit together:
 * the caller is never left holding a revoked token under a changed password. Then every chat
 * socket the old tokens opened closes; those of `tokenId` (the token this request came with)
 * close as "credentials replaced", so this client reconnects with the token it gets back.
 */
export async function changePassword({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; currentPassword: string; newPassword: string; userAgent?: string | null; tokenId?: string | undefined };
}): Promise<AuthResponse> {
  const user = await findUser({ ctx, input: { id: input.userId } });
  if (!user) throw notFound();
  if (!(await checkPassword({ ctx, input: { user, password: input.currentPassword } }))) {
    throw invalid(serverMessages.wrongPassword, { currentPassword: serverMessages.wrongPassword });
  }
  if (input.newPassword === input.currentPassword) {
    throw invalid(serverMessages.samePassword, { newPassword: serverMessages.samePassword });
  }
  const now = Date.now();
  const passwordHash = await hashPassword(input.newPassword);
  const { token, row: tokenRow } = await prepareToken({ userId: user.id, userAgent: input.userAgent });
  const [[updated], revoked] = await writeBatch(ctx.db, [
    ctx.db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id)).returning(),
    revokeAllTokensStatement(ctx.db, user.id, now),
    ctx.db.insert(authTokens).values(tokenRow),
  ]);
  await revokeChatSockets({
    ctx,
    input: { userId: user.id, tokens: revoked.map(({ id, expiresAt }) => ({ id, expiresAt })), replacedTokenId: input.tokenId },
  });
  return { token, user: toUser(updated ?? { ...user, passwordHash }) };
}
