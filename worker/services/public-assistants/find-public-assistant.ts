import { and, eq } from "drizzle-orm";
import { publicAssistants } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import type { PublicAssistantRow } from "./to-public-assistant";

/** The row the route guard loaded for this request (http/team-guard.ts), when it is `assistantId`'s. */
const guardedRow = (ctx: ServiceContext, assistantId: string): PublicAssistantRow | null =>
  ctx.access?.assistant?.id === assistantId ? ctx.access.assistant : null;

/**
 * The workspace whose assistant `assistantId` is, for a write's `user_id = ?` filter: the loaded
 * assistant's on a guarded request (the guard checked the caller's role there), else the caller's
 * own id (a direct caller acts as the owner).
 */
export const assistantWorkspace = (ctx: ServiceContext, input: { userId: string; assistantId: string }): string =>
  guardedRow(ctx, input.assistantId)?.userId ?? input.userId;

/**
 * The assistant row, or null when it does not exist or is not in the caller's workspace. On a
 * guarded request, the row the guard loaded (no second query) unless `fresh` asks to read it again.
 */
export async function findPublicAssistant({
  ctx,
  input,
  fresh = false,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
  fresh?: boolean;
}): Promise<PublicAssistantRow | null> {
  const loaded = guardedRow(ctx, input.assistantId);
  if (loaded && !fresh) return loaded;
  const [row] = await ctx.db
    .select()
    .from(publicAssistants)
    .where(and(eq(publicAssistants.id, input.assistantId), eq(publicAssistants.userId, assistantWorkspace(ctx, input))))
    .limit(1);
  return row ?? null;
}

/** Like `findPublicAssistant`, but another workspace's or a missing assistant is a 404. */
export async function requirePublicAssistant(args: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string };
}): Promise<PublicAssistantRow> {
  const row = await findPublicAssistant(args);
  if (!row) throw notFound();
  return row;
}
