import { and, eq, isNull } from "drizzle-orm";
import type { User } from "../../../contract";
import { isUniqueViolation, writeBatch } from "../../db/client";
import { users, verificationCodes } from "../../db/schema";
import { notFound } from "../../http/errors";
import { consumeCode } from "../codes/consume-code";
import type { ServiceContext } from "../context";
import { liftUnverifiedQuota } from "../realtime/lift-unverified-quota";
import { emailTaken } from "./register-user";
import { toUser } from "./to-user";

/**
 * Completes an e-mail change with the code sent to the new address (issued for this user only).
 * The new address is verified by the code (the chat room lifts its quota for unverified accounts). Open codes sent to the old address are retired in the
 * same batch, so a code mailed there can no longer verify or reset this account.
 */
export async function confirmEmailChange({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; email: string; code: string };
}): Promise<User> {
  await consumeCode({ ctx, input: { email: input.email, code: input.code, purpose: "change-email", userId: input.userId } });
  const now = Date.now();
  try {
    // The unique index settles a race with a registration of the same address since the request.
    const [[row]] = await writeBatch(ctx.db, [
      ctx.db
        .update(users)
        .set({ email: input.email, emailVerifiedAt: now, updatedAt: now })
        .where(eq(users.id, input.userId))
        .returning(),
      ctx.db
        .update(verificationCodes)
        .set({ consumedAt: now })
        .where(and(eq(verificationCodes.userId, input.userId), isNull(verificationCodes.consumedAt))),
    ]);
    if (!row) throw notFound();
    await liftUnverifiedQuota({ ctx, input: { userId: input.userId } });
    return toUser(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}
