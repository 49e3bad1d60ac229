import { chatMessages } from "../../contract";
import { getUserRoom } from "../chat/get-chat-room";
import type { Env } from "../env";
import { AppError } from "../http/errors";

type UserRoom = ReturnType<typeof getUserRoom>;

/**
 * One call to the user's room (durable-objects/chat-room.ts), where their chats, projects and
 * settings live. A room that cannot be reached answers 503 with a message that says to try again
 * (nothing was changed); the room's own answers come back as they are.
 */
export async function callUserRoom<T>(ctx: { env: Pick<Env, "CHAT_ROOM"> }, userId: string, call: (room: UserRoom) => Promise<T>): Promise<T> {
  try {
    return await call(getUserRoom(ctx.env, userId));
  } catch (error) {
    console.error(JSON.stringify({ event: "user-room-call-failed", userId, error: String(error) }));
    throw new AppError("SERVICE_UNAVAILABLE", chatMessages.roomUnavailable);
  }
}
