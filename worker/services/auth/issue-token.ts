import { auth } from "../../../contract";
import { sha256Hex } from "../../crypto/hash";
import { generateToken } from "../../crypto/random";
import { authTokens } from "../../db/schema";
import type { ServiceContext } from "../context";

export interface TokenInput {
  userId: string;
  userAgent?: string | null;
}

/**
 * A new token and the row that stores it (its SHA-256 only), without writing: callers that
 * must revoke and issue atomically (password change) put the insert in their own batch.
 */
export async function prepareToken(input: TokenInput) {
  const token = generateToken();
  const now = Date.now();
  const row = {
    id: crypto.randomUUID(),
    userId: input.userId,
    tokenHash: await sha256Hex(token),
    userAgent: input.userAgent?.slice(0, 256) ?? null,
    createdAt: now,
    expiresAt: now + auth.tokenTtlMs,
  } satisfies typeof authTokens.$inferInsert;
  return { token, row };
}

/** Issues and stores a Tala token for the user; the plaintext is returned once, never stored. */
export async function issueToken({ ctx, input }: { ctx: ServiceContext; input: TokenInput }): Promise<string> {
  const { token, row } = await prepareToken(input);
  await ctx.db.insert(authTokens).values(row);
  return token;
}
