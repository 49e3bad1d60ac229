import { eq } from "drizzle-orm";
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from "../../crypto/password";
import { users } from "../../db/schema";
import type { ServiceContext } from "../context";
import type { UserRow } from "./to-user";

/**
 * True when `password` is the user's password. A right password stored with weaker parameters
 * than today's is re-hashed on the spot: the only moment the plaintext is at hand.
 */
export async function checkPassword({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { user: UserRow; password: string };
}): Promise<boolean> {
  const stored = input.user.passwordHash;
  // An account without a password still pays for one KDF run, like every other refusal.
  if (!stored) return burnPasswordCheck(input.password);
  if (!(await verifyPassword(input.password, stored))) return false;
  if (needsRehash(stored)) {
    await ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(users.id, input.user.id));
  }
  return true;
}
