import { chatMessages } from "../../contract";
import { ModelError } from "../models";

/** The message-error text for a failed reply: what the user can act on, never internals. */
export function replyFailureMessage(error: unknown): string {
  if (!(error instanceof ModelError)) return chatMessages.replyFailed;
  switch (error.kind) {
    case "timeout":
      return chatMessages.modelTimeout;
    case "broken-stream":
      return chatMessages.modelInterrupted;
    case "http":
    case "network":
      return chatMessages.modelUnavailable;
    default:
      return chatMessages.replyFailed;
  }
}
