import { eq, sql } from "drizzle-orm";
import type { User } from "../../../contract";
import { users } from "../../db/schema";
import { consumeCode } from "../codes/consume-code";
import type { ServiceContext } from "../context";
import { liftUnverifiedQuota } from "../realtime/lift-unverified-quota";
import { toUser } from "./to-user";

/**
 * Confirms an address with its code and marks the account verified (keeping the first date); the
 * user's chat room lifts its daily quota for unverified accounts before this answers.
 */
export async function confirmEmailVerification({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { email: string; code: string };
}): Promise<User> {
  const { userId } = await consumeCode({ ctx, input: { ...input, purpose: "verify-email" } });
  const now = Date.now();
  const [row] = await ctx.db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})`, updatedAt: now })
    .where(eq(users.id, userId))
    .returning();
  // The code was issued to this user's address; a missing row means the account was deleted since.
  if (!row) throw new Error("verified account no longer exists");
  await liftUnverifiedQuota({ ctx, input: { userId } });
  return toUser(row);
}
