import { and, eq, isNull } from "drizzle-orm";
import { sha256Hex } from "../../crypto/hash";
import { authTokens } from "../../db/schema";
import type { Db } from "../../db/client";
import type { ServiceContext } from "../context";

/** The statement revoking every live token of a user, for a caller's batch. */
export const revokeAllTokensStatement = (db: Db, userId: string, now = Date.now()) =>
  db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(eq(authTokens.userId, userId), isNull(authTokens.revokedAt)));

/** Revokes one presented token (logout). Unknown or already revoked tokens are a no-op. */
export async function revokeToken({ ctx, input }: { ctx: ServiceContext; input: { token: string } }): Promise<void> {
  await ctx.db
    .update(authTokens)
    .set({ revokedAt: Date.now() })
    .where(and(eq(authTokens.tokenHash, await sha256Hex(input.token)), isNull(authTokens.revokedAt)));
}
