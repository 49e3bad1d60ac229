import { chatMessages, serverMessages } from "../../contract";
import { getChatRoom } from "../durable-objects/stubs";
import type { Env } from "../env";
import { AppError, unauthorized } from "../http/errors";

type ChatRoomStub = ReturnType<typeof getChatRoom>;

/**
 * One call to a chat room (durable-objects/chat-room.ts): a signed-in user's (`userRoomId`), where
 * their chats, projects and settings live, or a guest's (their id), which holds their chats. A room that cannot be reached just now (the runtime marks the error retryable or
 * overloaded) answers 503 with a message that says to try again; any other failure is a bug and
 * stays a logged 500.
 */
export async function callChatRoom<T>(ctx: { env: Pick<Env, "CHAT_ROOM"> }, roomId: string, call: (room: ChatRoomStub) => Promise<T>): Promise<T> {
  try {
    return await call(getChatRoom(ctx.env, roomId));
  } catch (error) {
    const failure = error as { retryable?: unknown; overloaded?: unknown };
    if (failure.retryable === true || failure.overloaded === true) {
      console.error(JSON.stringify({ event: "chat-room-unavailable", roomId, error: String(error) }));
      throw new AppError("SERVICE_UNAVAILABLE", chatMessages.roomUnavailable);
    }
    throw error;
  }
}

/** The room answers null for a write only when the account was deleted meanwhile: that session is over. */
export function signedIn<T>(value: T | null): T {
  if (value === null) throw unauthorized(serverMessages.sessionExpired);
  return value;
}
