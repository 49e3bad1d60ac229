import { and, eq } from "drizzle-orm";
import { publicAssistants } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import type { PublicAssistantRow } from "./to-public-assistant";

/** The owner's assistant row, or null when it does not exist or belongs to someone else. */
export async function findPublicAssistant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
}): Promise<PublicAssistantRow | null> {
  const [row] = await ctx.db
    .select()
    .from(publicAssistants)
    .where(and(eq(publicAssistants.id, input.assistantId), eq(publicAssistants.userId, input.userId)))
    .limit(1);
  return row ?? null;
}

/** Like `findPublicAssistant`, but another owner's or a missing assistant is a 404. */
export async function requirePublicAssistant(args: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
}): Promise<PublicAssistantRow> {
  const row = await findPublicAssistant(args);
  if (!row) throw notFound();
  return row;
}
