import type { WidgetMessage, WidgetSource } from "../../../contract";
import type { VisitorMessageRow } from "../../assistant/visitor-store";
import { toVisitorMessage } from "../visitor-sessions/to-visitor-session";

/**
 * Visitor sessions and messages live in the assistant's own Durable Object (AssistantHub,
 * assistant/visitor-store.ts); this is the widget's view of a stored message.
 */

/** A stored visitor message in the widget's shape; sources only when the owner shows them. */
export function toWidgetMessage(row: VisitorMessageRow, showSources: boolean): WidgetMessage {
  const stored = toVisitorMessage(row);
  const sources = (stored.sources ?? []).map((s): WidgetSource =>
    s.kind === "qa" && s.qaId
      ? { kind: "qa", qaId: s.qaId, name: s.name, fileId: s.fileId, excerpt: s.excerpt ?? "" }
      : { fileId: s.fileId, name: s.name, excerpt: s.excerpt ?? "", ...(s.url ? { url: s.url } : {}) },
  );
  return {
    id: row.id,
    chatId: row.sessionId,
    role: row.role,
    content: { type: "text", data: row.content },
    files: stored.files,
    timestamp: row.createdAt,
    status: "complete",
    error: null,
    ...(showSources && row.role === "assistant" && sources.length ? { sources } : {}),
    ...(stored.rating ? { rating: stored.rating } : {}),
    ...(row.role === "agent" && row.author ? { author: row.author } : {}),
    ...(row.offersHandoff ? { offersHandoff: true } : {}),
    ...(row.offersLeadForm ? { offersLeadForm: true, ...(row.leadTrigger ? { leadTrigger: row.leadTrigger } : {}) } : {}),
  };
}
