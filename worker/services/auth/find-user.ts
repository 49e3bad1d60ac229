import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import type { ServiceContext } from "../context";
import type { UserRow } from "./to-user";

export type FindUserInput = { id: string } | { email: string } | { firebaseUid: string };

/** One user row by id, (normalised) e-mail or Firebase uid; null when there is none. */
export async function findUser({ ctx, input }: { ctx: ServiceContext; input: FindUserInput }): Promise<UserRow | null> {
  const where =
    "id" in input
      ? eq(users.id, input.id)
      : "email" in input
        ? eq(users.email, input.email.trim().toLowerCase())
        : eq(users.firebaseUid, input.firebaseUid);
  const [row] = await ctx.db.select().from(users).where(where).limit(1);
  return row ?? null;
}
