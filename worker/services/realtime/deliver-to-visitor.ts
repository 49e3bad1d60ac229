import type { WidgetServerFrame } from "../../../contract";
import { getWidgetRoom } from "../../durable-objects/stubs";
import type { Env } from "../../env";

/**
 * Hands a visitor session's room a frame no message of the visitor caused (a person's message,
 * typing, a handoff change): its sockets and event streams get it (WidgetRoom.deliver). What it
 * carries is already saved, so a room that fails is logged, never thrown: the widget reads the
 * session again when it reconnects.
 */
export async function deliverToVisitor(env: Pick<Env, "WIDGET_ROOM">, sessionId: string, frame: WidgetServerFrame): Promise<void> {
  try {
    await getWidgetRoom(env, sessionId).deliver(frame);
  } catch (error) {
    console.error(JSON.stringify({ event: "widget-deliver-failed", sessionId, frame: frame.event, error: String(error) }));
  }
}
