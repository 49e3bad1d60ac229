import { chatMessages, serverMessages } from "../../contract";
import { getUserRoom } from "../chat/get-chat-room";
import type { Env } from "../env";
import { AppError, unauthorized } from "../http/errors";

type UserRoom = ReturnType<typeof getUserRoom>;

/**
 * One call to the user's room (durable-objects/chat-room.ts), where their chats, projects and
 * settings live. A room that cannot be reached just now (the runtime marks the error retryable or
 * overloaded) answers 503 with a message that says to try again; any other failure is a bug and
 * stays a logged 500.
 */
export async function callUserRoom<T>(ctx: { env: Pick<Env, "CHAT_ROOM"> }, userId: string, call: (room: UserRoom) => Promise<T>): Promise<T> {
  try {
    return await call(getUserRoom(ctx.env, userId));
  } catch (error) {
    const failure = error as { retryable?: unknown; overloaded?: unknown };
    if (failure.retryable === true || failure.overloaded === true) {
      console.error(JSON.stringify({ event: "user-room-unavailable", userId, error: String(error) }));
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
