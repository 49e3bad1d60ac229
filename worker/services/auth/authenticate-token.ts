import { and, eq, isNull, lt, or } from "drizzle-orm";
import { auth, serverMessages, type User } from "../../../contract";
import { sha256Hex } from "../../crypto/hash";
import { TOKEN_PREFIX } from "../../crypto/random";
import { authTokens, users } from "../../db/schema";
import { unauthorized } from "../../http/errors";
import { afterResponse, type ServiceContext } from "../context";
import { toUser } from "./to-user";

/**
 * Resolves a Tala token (`Authorization: Token <t>`) to its user. Unknown, revoked and expired
 * tokens all answer sessionExpired (401). last_used_at is refreshed at most once per
 * `auth.tokenTouchIntervalMs`, so ordinary requests stay reads, and off the response path
 * (`afterResponse`: the request's waitUntil; a failed write is logged, never thrown).
 */
export async function authenticateToken({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { token: string };
}): Promise<{ user: User; tokenId: string }> {
  const expired = () => unauthorized(serverMessages.sessionExpired);
  if (!input.token.startsWith(TOKEN_PREFIX) || input.token.length > 128) throw expired();
  const now = Date.now();
  const [found] = await ctx.db
    .select({ token: authTokens, user: users })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(eq(authTokens.tokenHash, await sha256Hex(input.token)))
    .limit(1);
  if (!found || found.token.revokedAt !== null || found.token.expiresAt <= now) throw expired();

  const staleBefore = now - auth.tokenTouchIntervalMs;
  if (found.token.lastUsedAt === null || found.token.lastUsedAt < staleBefore) {
    // Conditional, so concurrent requests of the same hour write once between them.
    const tokenId = found.token.id;
    await afterResponse(
      ctx,
      "token-touch-failed",
      () =>
        ctx.db
          .update(authTokens)
          .set({ lastUsedAt: now })
          .where(and(eq(authTokens.id, tokenId), or(isNull(authTokens.lastUsedAt), lt(authTokens.lastUsedAt, staleBefore)))),
      { tokenId },
    );
  }
  return { user: toUser(found.user), tokenId: found.token.id };
}
