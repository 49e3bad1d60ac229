import type { HandoffTelling } from "../../assistant/hub-handoff";
import type { Env } from "../../env";
import { relayInbox } from "../../widget/inbox-relay";
import { deliverToVisitor } from "../realtime/deliver-to-visitor";

/**
 * After a handoff write the assistant's object saved: the visitor's room gets the `handoff` frame
 * (its sockets and event streams), then the owners' rooms the inbox frame. Nothing when nothing
 * changed. Never throws (both log a room that fails: the state is saved and read again on reconnect).
 */
export async function tellHandoff(env: Pick<Env, "WIDGET_ROOM" | "CHAT_ROOM">, told: HandoffTelling | null): Promise<void> {
  if (!told) return;
  await deliverToVisitor(env, told.sessionId, told.frame);
  await relayInbox(env, told.relay);
}
