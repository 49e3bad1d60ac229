import type { VisitorMessage, VisitorSession } from "../../../contract";
import { sessionVisitor, type VisitorMessageRow as MessageRow, type VisitorSessionRow as SessionRow } from "../../assistant/visitor-store";

function jsonArray(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

const str = (value: unknown) => (typeof value === "string" ? value : "");

/** Stored JSON is written by the widget: read it defensively, keeping only the fields of the contract. */
export function toVisitorMessage(row: MessageRow): VisitorMessage {
  const files = jsonArray(row.files).map((f) => ({ name: str((f as { name?: unknown })?.name) }));
  const sources = jsonArray(row.sources).map((s) => {
    const source = (s ?? {}) as { fileId?: unknown; name?: unknown; excerpt?: unknown; url?: unknown; kind?: unknown; qaId?: unknown };
    return {
      ...(source.kind === "qa" && typeof source.qaId === "string" ? { kind: "qa" as const, qaId: source.qaId } : {}),
      fileId: str(source.fileId),
      name: str(source.name),
      ...(typeof source.excerpt === "string" ? { excerpt: source.excerpt } : {}),
      ...(typeof source.url === "string" && /^https?:\/\//i.test(source.url) ? { url: source.url } : {}),
    };
  });
  return {
    ...(row.id ? { id: row.id } : {}),
    role: row.role,
    ...(row.role === "agent" && row.author ? { author: row.author } : {}),
    content: { type: row.contentType, data: row.content },
    files,
    timestamp: row.createdAt,
    ...(sources.length ? { sources } : {}),
    ...(row.role === "assistant" && row.rating ? { rating: row.rating } : {}),
  };
}

export function toVisitorSession(row: SessionRow, messages: VisitorMessage[]): VisitorSession {
  const visitor = sessionVisitor(row);
  return {
    _id: row.id,
    sessionId: row.id,
    messageCount: row.messageCount,
    lastMessageAt: row.lastMessageAt ?? null,
    sessionInfo: { referrer: row.referrer, startedAt: row.startedAt, origin: row.origin, userAgent: row.userAgent, locale: row.locale },
    messages,
    ...(visitor ? { visitor } : {}),
  };
}
