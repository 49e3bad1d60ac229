import { userRoomId } from "../../contract";
import type { Env } from "../env";

/** The stub of a chat room, by room id (`user-<id>` or a guest id): the one way to reach a ChatRoom. */
export function getChatRoom(env: Pick<Env, "CHAT_ROOM">, roomId: string) {
  return env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(roomId));
}

/** A signed-in user's room: it owns their chats, messages, projects and settings. */
export const getUserRoom = (env: Pick<Env, "CHAT_ROOM">, userId: string) => getChatRoom(env, userRoomId(userId));
