import type { InboxFrameData } from "../../../contract";
import { getChatRoom } from "../../durable-objects/stubs";
import type { Env } from "../../env";

/**
 * Tells the owners' chat rooms (`user-<id>` names) of something in one of their assistants'
 * conversations: their dashboards' sockets get an `inbox` frame (ChatRoom.relayInbox). The inbox
 * reads the saved state again on reconnect, so a room that fails is logged, never thrown.
 */
export async function relayToOwners(env: Pick<Env, "CHAT_ROOM">, rooms: readonly string[], data: InboxFrameData): Promise<void> {
  await Promise.all(
    rooms.map(async (room) => {
      try {
        await getChatRoom(env, room).relayInbox(data);
      } catch (error) {
        console.error(JSON.stringify({ event: "inbox-relay-failed", room, kind: data.kind, error: String(error) }));
      }
    }),
  );
}
