import { chatMessages, userRoomId, type UserSettings } from "../../../contract";
import { invalid } from "../../http/errors";
import { getModelProvider } from "../../models";
import { callChatRoom, signedIn } from "../call-chat-room";
import type { ServiceContext } from "../context";

/** The user's preferences (the chosen model), kept in their own room; the defaults until one is saved. */
export function getSettings({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<UserSettings> {
  return callChatRoom(ctx, userRoomId(input.userId), (room) => room.settings());
}

/**
 * Stores the model the user's chats use (null: the provider's default). The model must be one the
 * configured provider lists; offline, only null is accepted. The room reads it on the next message.
 */
export async function updateSettings({ ctx, input }: { ctx: ServiceContext; input: { userId: string; model: string | null } }): Promise<UserSettings> {
  if (input.model !== null) {
    const provider = getModelProvider(ctx.env);
    const offered = provider ? await provider.listModels() : [];
    if (!offered.includes(input.model)) throw invalid(chatMessages.unknownModel, { model: chatMessages.unknownModel });
  }
  return signedIn(await callChatRoom(ctx, userRoomId(input.userId), (room) => room.saveSettings({ model: input.model })));
}
