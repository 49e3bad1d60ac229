/**
 * The owner's live Inbox and takeover (contract/schemas/handoff.ts), one function per call, each
 * answer parsed with the contract's schema. Writes that must not happen twice (a person's message,
 * takeover, hand back) are sent once, not retried: a failure is shown with a retry instead. The
 * background calls (the badge's summary, the watch lease) leave a 401 to the socket, whose refusal
 * ends the session with its own toast.
 */
import {
  agentMessageResponse,
  inboxResponse,
  inboxSummaryResponse,
  visitorSessionResponse,
  type InboxFilter,
  type InboxResponse,
  type InboxSummaryResponse,
  type VisitorMessage,
  type VisitorSession,
} from "../../../contract";
import { apiClient, type ApiClient } from "./api";

const assistantPath = (assistantId: string, rest: string) => `/public-assistants/${encodeURIComponent(assistantId)}${rest}`;
const chatPath = (assistantId: string, sessionId: string, rest = "") => assistantPath(assistantId, `/chats/${encodeURIComponent(sessionId)}${rest}`);

/** The inbox's address: `?filter=&page=`. */
export const inboxPath = (assistantId: string, filter: InboxFilter, page: number) =>
  assistantPath(assistantId, `/inbox?${new URLSearchParams({ filter, page: String(page) })}`);

export function createInboxApi(client: ApiClient) {
  return {
    /** GET …/inbox: one page of conversations, latest activity first, and the filters' counts. */
    list: (assistantId: string, filter: InboxFilter, page: number, signal?: AbortSignal): Promise<InboxResponse> =>
      client.get(inboxPath(assistantId, filter, page), { schema: inboxResponse, signal }),
    /** POST …/inbox/watch: tell me of every visitor message (and stream `sessionId`'s replies) for a lease. */
    watch: (assistantId: string, sessionId?: string) =>
      client.post(assistantPath(assistantId, "/inbox/watch"), sessionId ? { sessionId } : {}, { retry: false, reportUnauthorized: false }),
    /** GET /api/inbox/summary: conversations needing a person across every assistant of mine. */
    summary: (signal?: AbortSignal): Promise<InboxSummaryResponse> =>
      client.get("/inbox/summary", { schema: inboxSummaryResponse, signal, reportUnauthorized: false }),
    /** GET …/chats/{sessionId}: the conversation with the person's messages and its handoff. */
    session: async (assistantId: string, sessionId: string, signal?: AbortSignal): Promise<VisitorSession> =>
      (await client.get(chatPath(assistantId, sessionId), { schema: visitorSessionResponse, signal })).session,
    takeOver: async (assistantId: string, sessionId: string): Promise<VisitorSession> =>
      (await client.post(chatPath(assistantId, sessionId, "/takeover"), undefined, { schema: visitorSessionResponse, retry: false })).session,
    handBack: async (assistantId: string, sessionId: string): Promise<VisitorSession> =>
      (await client.delete(chatPath(assistantId, sessionId, "/takeover"), { schema: visitorSessionResponse, retry: false })).session,
    /** POST …/messages: the person's reply; 409 unless taken over, 400 naming the limit. */
    send: async (assistantId: string, sessionId: string, content: string): Promise<VisitorMessage> =>
      (await client.post(chatPath(assistantId, sessionId, "/messages"), { content }, { schema: agentMessageResponse, retry: false })).message,
    typing: (assistantId: string, sessionId: string, typing: boolean) => client.post(chatPath(assistantId, sessionId, "/typing"), { typing }, { retry: false }),
    read: (assistantId: string, sessionId: string) => client.post(chatPath(assistantId, sessionId, "/read"), undefined, { retry: false }),
  };
}

export const inboxApi = createInboxApi(apiClient);
