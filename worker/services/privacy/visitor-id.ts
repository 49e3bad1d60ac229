import { privacyMessages, visitorIdentity, widget } from "../../../contract";
import { invalid } from "../../http/errors";

/** The longest visitor id: a signed visitor's `sub`, or a conversation's id. */
export const maxVisitorIdChars = Math.max(visitorIdentity.maxSubChars, widget.maxSessionIdChars);

/** The path's visitor id as given, or 400 `visitorIdInvalid` when empty or longer than any visitor id. */
export function checkVisitorId(visitorId: string): string {
  if (!visitorId || visitorId.length > maxVisitorIdChars) throw invalid(privacyMessages.visitorIdInvalid, { visitorId: privacyMessages.visitorIdInvalid });
  return visitorId;
}

/** The path's conversation id, or 400 naming its limit when empty or longer than any conversation id. */
export function checkConversationId(sessionId: string): string {
  const message = privacyMessages.conversationIdInvalid(widget.maxSessionIdChars);
  if (!sessionId || sessionId.length > widget.maxSessionIdChars) throw invalid(message, { sessionId: message });
  return sessionId;
}

/** The export's file name: `visitor-{id}.json`, the id reduced to letters, digits, `.`, `_` and `-` (at most 100). */
export const visitorExportFilename = (visitorId: string) => `visitor-${visitorId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100)}.json`;
