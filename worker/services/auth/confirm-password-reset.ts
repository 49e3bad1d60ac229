import { eq, sql } from "drizzle-orm";
import { hashPassword } from "../../crypto/password";
import { writeBatch } from "../../db/client";
import { users } from "../../db/schema";
import { consumeCode } from "../codes/consume-code";
import type { ServiceContext } from "../context";
import { revokeChatSockets } from "../realtime/revoke-chat-sockets";
import { revokeAllTokensStatement } from "./revoke-tokens";

/**
 * Sets a new password with a reset code. Every session is signed out (whoever knew the old
 * password is locked out, their open chat sockets included), and the address counts as verified:
 * the code proved the user reads it.
 */
export async function confirmPasswordReset({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { email: string; code: string; newPassword: string };
}): Promise<void> {
  const { userId } = await consumeCode({ ctx, input: { email: input.email, code: input.code, purpose: "reset-password" } });
  const now = Date.now();
  const passwordHash = await hashPassword(input.newPassword);
  const [, revoked] = await writeBatch(ctx.db, [
    ctx.db
      .update(users)
      .set({ passwordHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})`, updatedAt: now })
      .where(eq(users.id, userId)),
    revokeAllTokensStatement(ctx.db, userId, now),
  ]);
  await revokeChatSockets({ ctx, input: { userId, tokens: revoked.map(({ id, expiresAt }) => ({ id, expiresAt })) } });
}
