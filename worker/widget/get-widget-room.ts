import type { Env } from "../env";

/** The stub of a visitor session's room, by visitor session id: the one way to reach a WidgetRoom. */
export function getWidgetRoom(env: Pick<Env, "WIDGET_ROOM">, sessionId: string) {
  return env.WIDGET_ROOM.get(env.WIDGET_ROOM.idFromName(sessionId));
}
