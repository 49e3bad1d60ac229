import type { Chat, ChatDetailResponse, ChatListResponse, UpdateChatBody } from "../../../contract";
import type { ListChatsInput } from "../../chat/room-store";
import { notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { callUserRoom } from "../call-user-room";

/**
 * The signed-in user's chat history, read and written in their own room (no D1): every record
 * there is theirs, so another user's chat id is simply not found (404).
 */

/** Newest activity first, `limit` per page; `search` matches titles and message text; `projectId` keeps one project's. */
export async function listChats({ ctx, input }: { ctx: ServiceContext; input: { userId: string } & ListChatsInput }): Promise<ChatListResponse> {
  const { userId, ...query } = input;
  return callUserRoom(ctx, userId, (room) => room.listChats(query));
}

/** One chat with all its messages, oldest first, read a bounded page per room call (a long chat outgrows one RPC answer). */
export async function getChat({ ctx, input }: { ctx: ServiceContext; input: { userId: string; chatId: string } }): Promise<ChatDetailResponse> {
  const first = await callUserRoom(ctx, input.userId, (room) => room.chatDetailPage(input.chatId, null));
  if (!first) throw notFound();
  const messages = [...first.messages];
  for (let page = first; page.next; ) {
    const after = page.next;
    const following = await callUserRoom(ctx, input.userId, (room) => room.chatDetailPage(input.chatId, after));
    if (!following) throw notFound(); // deleted meanwhile
    messages.push(...following.messages);
    page = following;
  }
  return { chat: first.chat, messages };
}

/**
 * Renames a chat or moves it into (or, with projectId null, out of) one of the user's projects;
 * an unknown chat or project is 404. The activity time is kept, so a rename does not reorder the history.
 */
export async function updateChat({ ctx, input }: { ctx: ServiceContext; input: { userId: string; chatId: string; changes: UpdateChatBody } }): Promise<Chat> {
  const chat = await callUserRoom(ctx, input.userId, (room) => room.updateChat(input.chatId, input.changes));
  if (!chat) throw notFound();
  return chat;
}

/** Deletes a chat and its messages, together. */
export async function deleteChat({ ctx, input }: { ctx: ServiceContext; input: { userId: string; chatId: string } }): Promise<void> {
  if (!(await callUserRoom(ctx, input.userId, (room) => room.deleteChat(input.chatId)))) throw notFound();
}
