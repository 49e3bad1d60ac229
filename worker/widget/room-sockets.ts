import type { Connection } from "partyserver";
import { widgetSocketClose, type WidgetServerFrame, type WidgetSocketClose } from "../../contract";
import type { AccessDenied } from "../assistant/assistant-copy";
import type { WidgetIdentity } from "./room-identity";

/** A visitor's socket in its WidgetRoom, with who it is. The room's small socket helpers. */
export type WidgetConnection = Connection<WidgetIdentity>;

export const closeFor = (denied: AccessDenied): WidgetSocketClose => (denied === "origin-not-allowed" ? widgetSocketClose.originNotAllowed : widgetSocketClose.unavailable);

/** Tells the widget why (a message-error it shows as final), then closes with the contract's code. */
export function refuse(connection: WidgetConnection, reason: WidgetSocketClose, clientMessageId?: string) {
  const chatId = connection.state?.sessionId ?? "";
  send(connection, { event: "message-error", data: { error: reason.reason, reason: reason.refusal, chatId, ...(clientMessageId ? { clientMessageId } : {}) } });
  close(connection, reason);
}

export function close(connection: WidgetConnection, { code, reason }: { code: number; reason: string }) {
  try {
    connection.close(code, reason);
  } catch {
    // already closing
  }
}

/** Sends one frame to one connection; a socket that is already closing is skipped. */
export function send(connection: Connection, frame: WidgetServerFrame) {
  try {
    connection.send(JSON.stringify(frame));
  } catch {
    // closed meanwhile: the widget reloads the session on reconnect
  }
}
