import type { Chat, ChatDetailResponse, ChatListResponse, UpdateChatBody } from "../../../contract";
import type { ListChatsInput } from "../../chat/room-store";
import { notFound } from "../../http/errors";
import { callChatRoom } from "../call-chat-room";
import type { ServiceContext } from "../context";

/**
 * The chat history of a signed-in user or a guest, read and written in their own room (no D1):
 * `roomId` is the room the caller was authenticated for (http/auth.ts `requireChatOwner`), and
 * every record there is theirs, so another user's chat id is simply not found (404).
 */

type Input<T> = { ctx: ServiceContext; input: { roomId: string } & T };

/** Newest activity first, `limit` per page; `search` matches titles and message text; `projectId` keeps one project's. */
export async function listChats({ ctx, input }: Input<ListChatsInput>): Promise<ChatListResponse> {
  const { roomId, ...query } = input;
  return callChatRoom(ctx, roomId, (room) => room.listChats(query));
}

/** One chat with all its messages, oldest first, read a bounded page per room call (a long chat outgrows one RPC answer). */
export async function getChat({ ctx, input }: Input<{ chatId: string }>): Promise<ChatDetailResponse> {
  const first = await callChatRoom(ctx, input.roomId, (room) => room.chatDetailPage(input.chatId, null));
  if (!first) throw notFound();
  const messages = [...first.messages];
  for (let page = first; page.next; ) {
    const after = page.next;
    const following = await callChatRoom(ctx, input.roomId, (room) => room.chatDetailPage(input.chatId, after));
    if (!following) throw notFound(); // deleted meanwhile
    messages.push(...following.messages);
    page = following;
  }
  return { chat: first.chat, messages };
}

/**
 * Renames a chat or moves it into (or, with projectId null, out of) one of the user's projects;
 * an unknown chat or project is 404 (a guest has no projects). The activity time is kept, so a
 * rename does not reorder the history.
 */
export async function updateChat({ ctx, input }: Input<{ chatId: string; changes: UpdateChatBody }>): Promise<Chat> {
  const chat = await callChatRoom(ctx, input.roomId, (room) => room.updateChat(input.chatId, input.changes));
  if (!chat) throw notFound();
  return chat;
}

/** Deletes a chat and its messages, together. */
export async function deleteChat({ ctx, input }: Input<{ chatId: string }>): Promise<void> {
  if (!(await callChatRoom(ctx, input.roomId, (room) => room.deleteChat(input.chatId)))) throw notFound();
}
