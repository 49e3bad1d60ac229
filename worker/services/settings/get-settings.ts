import { eq } from "drizzle-orm";
import type { UserSettings } from "../../../contract";
import { users } from "../../db/schema";
import type { ServiceContext } from "../context";
import { readSettings } from "./read-settings";

/** The user's preferences (the chosen model); defaults for an unknown user. */
export async function getSettings({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<UserSettings> {
  const [row] = await ctx.db.select({ settings: users.settings }).from(users).where(eq(users.id, input.userId)).limit(1);
  return readSettings(row?.settings);
}
