import { eq, sql } from "drizzle-orm";
import { chatMessages, userRoomId, type UserSettings } from "../../../contract";
import { getChatRoom } from "../../chat/get-chat-room";
import { users } from "../../db/schema";
import { invalid } from "../../http/errors";
import { getModelProvider } from "../../models";
import type { ServiceContext } from "../context";

/**
 * Stores the model the user's chats use (null: the provider's default). The model must be one the
 * configured provider lists; offline, only null is accepted. Written with json_set/json_remove so
 * other keys of users.settings are kept even if written concurrently.
 */
export async function updateSettings({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; model: string | null };
}): Promise<UserSettings> {
  if (input.model !== null) {
    const provider = getModelProvider(ctx.env);
    const offered = provider ? await provider.listModels() : [];
    if (!offered.includes(input.model)) throw invalid(chatMessages.unknownModel, { model: chatMessages.unknownModel });
  }
  const settings =
    input.model === null ? sql`json_remove(${users.settings}, '$.model')` : sql`json_set(${users.settings}, '$.model', ${input.model})`;
  await ctx.db.update(users).set({ settings, updatedAt: Date.now() }).where(eq(users.id, input.userId));
  // The user's room keeps the chosen model in memory: tell it. A failed poke must not fail a change
  // that is already saved; the room re-reads the setting within minutes anyway.
  await getChatRoom(ctx.env, userRoomId(input.userId))
    .settingsChanged()
    .catch((error: unknown) => console.error(JSON.stringify({ event: "settings-poke-failed", userId: input.userId, error: String(error) })));
  return { model: input.model };
}
