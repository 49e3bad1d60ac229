import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { User, updateProfileBody } from "../../../contract";
import { users } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { toUser } from "./to-user";

/** Updates the signed-in user's own profile; fields left out keep their value. */
export async function updateProfile({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; changes: z.output<typeof updateProfileBody> };
}): Promise<User> {
  const { firstName, lastName, phone, birthDate } = input.changes;
  const [row] = await ctx.db
    .update(users)
    .set({ firstName, lastName, phone, birthDate, updatedAt: Date.now() })
    .where(eq(users.id, input.userId))
    .returning();
  if (!row) throw notFound();
  return toUser(row);
}
