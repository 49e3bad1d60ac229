/** Inbox test data in the contract's shapes (tests only). */
import type { InboxConversation, InboxResponse, VisitorMessage, VisitorSession } from "../../../../../contract";

export function row(sessionId: string, over: Partial<InboxConversation> = {}): InboxConversation {
  return {
    sessionId,
    title: `Question of ${sessionId}`,
    preview: "Hello",
    previewRole: "user",
    lastMessageAt: 1_000,
    messageCount: 1,
    unread: 0,
    live: false,
    handoff: { state: "none" },
    locale: "en",
    referrer: "https://shop.example/returns?token=secret",
    ...over,
  };
}

export function inbox(conversations: InboxConversation[], over: Partial<InboxResponse> = {}): InboxResponse {
  const counts = {
    needsPerson: conversations.filter((c) => c.handoff.state === "requested").length,
    withPerson: conversations.filter((c) => c.handoff.state === "taken").length,
    live: conversations.filter((c) => c.live).length,
    unread: conversations.reduce((n, c) => n + c.unread, 0),
  };
  return { conversations, total: conversations.length, page: 1, totalPages: 1, counts, ...over };
}

export function message(id: string, role: VisitorMessage["role"], text: string, timestamp: number, over: Partial<VisitorMessage> = {}): VisitorMessage {
  return { id, role, content: { type: "text", data: text }, files: [], timestamp, ...over };
}

export function session(sessionId: string, over: Partial<VisitorSession> = {}): VisitorSession {
  return {
    _id: `id-${sessionId}`,
    sessionId,
    sessionInfo: { startedAt: 500, referrer: "https://shop.example/returns", origin: "https://shop.example", userAgent: "test", locale: "en" },
    messageCount: 1,
    lastMessageAt: 1_000,
    messages: [message("m1", "user", "Can I talk to someone?", 1_000)],
    ...over,
  };
}
