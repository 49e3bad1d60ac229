import { handoffMessages, widgetMessages } from "../../../contract";
import { AppError, unauthorized } from "../../http/errors";

/** What identifies a visitor's handoff call: the key's assistant, the session, a signed visitor's token. */
export type VisitorHandoffInput = { assistantId: string; sessionId: string; visitorToken?: string | undefined };

/** Maps the assistant's object's refusal of a visitor's handoff call to its HTTP error (401 identity, 403 off, 404 session). */
export function visitorHandoffRefusal(result: { ok: false; reason?: string; identity?: string }): AppError {
  if (result.identity) return unauthorized(result.identity);
  if (result.reason === "off") return new AppError("FORBIDDEN", handoffMessages.handoffOff);
  return new AppError("NOT_FOUND", widgetMessages.sessionNotFound);
}
