/**
 * The chat screen's conversations as a pure reducer over the realtime frames and the screen's own
 * actions, so the delicate parts (delta offsets, the optimistic message swapped for the saved one,
 * a new chat getting its id, a failed reply keeping its partial text) are unit-tested.
 *
 * A conversation is keyed by its chat id, or by `pending:<clientMessageId>` for a new chat whose
 * first message the server has not answered yet; `resolved` then maps that key to the chat id.
 */
import type { Chat, ChatMessage, RemainingMessages, ServerFrame } from "../../../../contract";

/** A file attached to a message this tab sent: its extracted text stays in memory for Retry. */
export interface Attachment {
  name: string;
  text: string;
}

export interface UiMessage extends ChatMessage {
  /** Set on a message this tab sent, until the server's saved copy replaces it. */
  clientMessageId?: string;
  /** The server refused this message (it was never saved): shown with Retry. */
  sendError?: string;
  /** What was attached, kept in memory so Retry and Regenerate can send it again. */
  attachments?: Attachment[];
}

export type LoadState = "idle" | "loading" | "ready" | "error" | "missing";

export interface Conversation {
  chat: Chat | null;
  messages: UiMessage[];
  /** The saved messages (REST, signed-in users): idle until the screen opens the chat. */
  load: LoadState;
  /**
   * A reply is on its way: `messageId` once `thinking` named it, null while the question is sent
   * and not yet answered.
   */
  streaming: { messageId: string | null } | null;
  /** A delta arrived past the end of the text: the screen re-joins for a full snapshot. */
  gap: boolean;
  /** The project a new chat starts in (sent with its first message). */
  projectId: string | null;
}

export interface ChatState {
  conversations: Record<string, Conversation>;
  /** A new chat's pending key → the chat id the server gave it. */
  resolved: Record<string, string>;
  /** clientMessageId → the conversation key it was sent from. */
  outbox: Record<string, string>;
  /** Messages left today (remaining-messages: a guest's, or an unverified account's), null until the server says. */
  remaining: { remaining: number; limit: number; scope?: RemainingMessages["scope"] | undefined } | null;
  /**
   * Regenerate requests this tab sent (their clientMessageId → chat id), so a refusal is known
   * for what it is (nothing changed) and never taken for a failure of the reply being written.
   */
  regenerates: Record<string, string>;
}

export type ChatAction =
  | { type: "frame"; frame: ServerFrame }
  /** This tab sent a message (optimistically shown until the server echoes it). */
  | { type: "sent"; key: string; message: UiMessage; projectId?: string | null }
  /** This tab asked for the chat's last reply to be written again (regenerate frame). */
  | { type: "regenerate-sent"; chatId: string; clientMessageId: string }
  /** Drops a refused message (before it is sent again). */
  | { type: "discard"; key: string; clientMessageId: string }
  /** GET /api/chats/:id answered. */
  | { type: "loaded"; chat: Chat; messages: ChatMessage[] }
  | { type: "load-state"; chatId: string; load: LoadState }
  /** The snapshot asked for after a gap is on its way. */
  | { type: "gap-handled"; chatId: string }
  | { type: "chat-updated"; chat: Chat }
  | { type: "chat-removed"; chatId: string }
  | { type: "project-chosen"; key: string; projectId: string | null }
  | { type: "restore"; conversations: Record<string, Conversation> }
  | { type: "reset" };

export const initialChatState = (): ChatState => ({ conversations: {}, resolved: {}, outbox: {}, remaining: null, regenerates: {} });

/** The regenerate requests of other chats than `chatId` (those of `chatId` are over). */
function withoutRegenerates(state: ChatState, chatId: string): ChatState {
  const entries = Object.entries(state.regenerates);
  if (!entries.some(([, c]) => c === chatId)) return state;
  return { ...state, regenerates: Object.fromEntries(entries.filter(([, c]) => c !== chatId)) };
}

export const pendingKey = (clientMessageId: string) => `pending:${clientMessageId}`;
export const isPendingKey = (key: string) => key.startsWith("pending:");

export const emptyConversation = (projectId: string | null = null): Conversation => ({
  chat: null,
  messages: [],
  load: "idle",
  streaming: null,
  gap: false,
  projectId,
});

/** The conversation key a screen key stands for now (a pending key once its chat exists). */
export function resolveKey(state: ChatState, key: string): string {
  return state.resolved[key] ?? key;
}

/** Inserts a saved message in time order (stable for equal times), or replaces the one with its id. */
function upsertMessage(messages: UiMessage[], message: UiMessage, clientMessageId?: string): UiMessage[] {
  const at = messages.findIndex((m) => m.id === message.id || (clientMessageId !== undefined && m.clientMessageId === clientMessageId && m.role === message.role));
  if (at >= 0) {
    const next = messages.slice();
    const old = messages[at]!;
    // The saved copy of a message this tab sent keeps the attachments' text (for Regenerate).
    next[at] = old.attachments && !message.attachments ? { ...message, attachments: old.attachments } : message;
    return next;
  }
  let insert = messages.length;
  while (insert > 0 && messages[insert - 1]!.timestamp > message.timestamp) insert--;
  return [...messages.slice(0, insert), message, ...messages.slice(insert)];
}

/** The placeholder of a reply the server announced (thinking) or started streaming. */
function replyPlaceholder(conv: Conversation, chatId: string, messageId: string): UiMessage {
  const last = conv.messages[conv.messages.length - 1];
  return {
    id: messageId,
    chatId,
    role: "assistant",
    content: { type: "text", data: "" },
    files: [],
    timestamp: (last?.timestamp ?? 0) + 1,
    status: "streaming",
    error: null,
  };
}

function withConversation(state: ChatState, key: string, update: (conv: Conversation) => Conversation): ChatState {
  const conv = state.conversations[key] ?? emptyConversation();
  return { ...state, conversations: { ...state.conversations, [key]: update(conv) } };
}

/**
 * A new chat got its id: its pending conversation (the optimistic first message) moves under the
 * chat id, merged with whatever already arrived there.
 */
function adoptPending(state: ChatState, clientMessageId: string | undefined, chatId: string): ChatState {
  if (!clientMessageId) return state;
  const from = state.outbox[clientMessageId];
  if (!from || !isPendingKey(from) || from === chatId) return state;
  const pending = state.conversations[from];
  const { [from]: _moved, ...rest } = state.conversations;
  const target = rest[chatId] ?? emptyConversation();
  let messages = target.messages;
  for (const m of pending?.messages ?? []) {
    if (!messages.some((x) => x.id === m.id || (m.clientMessageId && x.clientMessageId === m.clientMessageId))) {
      messages = upsertMessage(messages, { ...m, chatId });
    }
  }
  const outbox = { ...state.outbox };
  for (const [cid, key] of Object.entries(outbox)) if (key === from) outbox[cid] = chatId;
  return {
    ...state,
    outbox,
    resolved: { ...state.resolved, [from]: chatId },
    conversations: {
      ...rest,
      [chatId]: {
        ...target,
        messages,
        streaming: target.streaming ?? pending?.streaming ?? null,
        projectId: target.projectId ?? pending?.projectId ?? null,
        load: target.load === "idle" ? "ready" : target.load,
      },
    },
  };
}

/** Applies a text delta: replace from `offset`; a delta past the end means one was missed. */
export function applyDelta(text: string, delta: string, offset: number): string | null {
  if (offset > text.length) return null;
  return text.slice(0, offset) + delta;
}

function onFrame(state: ChatState, frame: ServerFrame): ChatState {
  switch (frame.event) {
    case "inbox":
    case "team-changed":
      // The owner's inbox (schemas/handoff.ts) and the team's changes (schemas/team.ts), not a chat's.
      return state;
    case "remaining-messages":
      return { ...state, remaining: { remaining: frame.data.remaining, limit: frame.data.limit, scope: frame.data.scope } };

    case "new-message": {
      const { message, clientMessageId, chat } = frame.data;
      let next = adoptPending(state, clientMessageId, message.chatId);
      // A reply ended: the chat's regenerate requests were answered (regenerated or not).
      if (message.role === "assistant" && message.status !== "streaming") next = withoutRegenerates(next, message.chatId);
      return withConversation(next, message.chatId, (conv) => {
        const messages = upsertMessage(conv.messages, message, message.role === "user" ? clientMessageId : undefined);
        let streaming = conv.streaming;
        if (message.role === "assistant" && message.status !== "streaming" && (!streaming || streaming.messageId === null || streaming.messageId === message.id)) {
          streaming = null;
        } else if (message.role === "assistant" && message.status === "streaming") {
          streaming = { messageId: message.id };
        }
        return { ...conv, chat: chat ?? conv.chat, messages, streaming };
      });
    }

    case "thinking": {
      const { chatId, messageId } = frame.data;
      return withConversation(state, chatId, (conv) => {
        const existing = conv.messages.find((m) => m.id === messageId);
        const messages = existing
          ? conv.messages.map((m) => (m.id === messageId ? { ...m, status: "streaming" as const, error: null } : m))
          : [...conv.messages, replyPlaceholder(conv, chatId, messageId)];
        return { ...conv, messages, streaming: { messageId } };
      });
    }

    case "message-delta": {
      const { chatId, messageId, delta, offset } = frame.data;
      return withConversation(state, chatId, (conv) => {
        const known = conv.messages.find((m) => m.id === messageId);
        // A late copy of a delta (a second stream, a socket and HTTP at once) never reopens a finished reply.
        if (known && known.status !== "streaming") return conv;
        const base = known ?? replyPlaceholder(conv, chatId, messageId);
        const text = applyDelta(base.content.data, delta, offset);
        if (text === null) return { ...conv, gap: true, streaming: { messageId } };
        const updated: UiMessage = { ...base, content: { type: "text", data: text }, status: "streaming" };
        const messages = conv.messages.some((m) => m.id === messageId)
          ? conv.messages.map((m) => (m.id === messageId ? updated : m))
          : [...conv.messages, updated];
        return { ...conv, messages, streaming: { messageId }, gap: offset === 0 ? false : conv.gap };
      });
    }

    case "message-error": {
      const { error, chatId, messageId, clientMessageId, message } = frame.data;
      const regenerated = clientMessageId ? state.regenerates[clientMessageId] : undefined;
      if (regenerated) {
        // A refused regenerate: nothing changed on the server; only this tab's wait ends.
        const { [clientMessageId!]: _done, ...regenerates } = state.regenerates;
        const next = { ...state, regenerates };
        const conv = next.conversations[regenerated];
        return conv?.streaming && conv.streaming.messageId === null ? withConversation(next, regenerated, (c) => ({ ...c, streaming: null })) : next;
      }
      if (message) {
        // A reply failed: its saved partial text, status error, replaces what streamed.
        return withConversation(withoutRegenerates(state, message.chatId), message.chatId, (conv) => ({
          ...conv,
          messages: upsertMessage(conv.messages, message),
          streaming: null,
        }));
      }
      const key = (clientMessageId && state.outbox[clientMessageId]) || chatId;
      if (!key) return state; // not about a conversation (e.g. an unreadable frame)
      const conv = state.conversations[key];
      if (!conv) return state;
      const refused = clientMessageId ? conv.messages.find((m) => m.clientMessageId === clientMessageId && m.role === "user") : undefined;
      if (refused) {
        // Never saved: the question is marked for Retry; no reply is coming.
        return withConversation(state, key, (c) => ({
          ...c,
          messages: c.messages.map((m) => (m === refused ? { ...m, sendError: error } : m)),
          streaming: null,
        }));
      }
      const streamingId = messageId ?? conv.streaming?.messageId ?? null;
      if (streamingId && conv.messages.some((m) => m.id === streamingId && m.status === "streaming")) {
        // The reply broke without a saved copy: keep its text, mark it failed.
        return withConversation(state, key, (c) => ({
          ...c,
          messages: c.messages.map((m) => (m.id === streamingId ? { ...m, status: "error" as const, error } : m)),
          streaming: null,
        }));
      }
      if (!clientMessageId && !messageId && chatId && conv.load !== "ready") {
        // join-{chatId} of a chat the server does not know.
        return withConversation(state, key, (c) => ({ ...c, load: "missing", streaming: null }));
      }
      return conv.streaming ? withConversation(state, key, (c) => ({ ...c, streaming: null })) : state;
    }
  }
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "frame":
      return onFrame(state, action.frame);

    case "sent": {
      const key = resolveKey(state, action.key);
      const cid = action.message.clientMessageId;
      const next = cid ? { ...state, outbox: { ...state.outbox, [cid]: key } } : state;
      return withConversation(next, key, (conv) => ({
        ...conv,
        messages: [...conv.messages, action.message],
        streaming: { messageId: null },
        projectId: action.projectId !== undefined ? action.projectId : conv.projectId,
        load: conv.load === "idle" && isPendingKey(key) ? "ready" : conv.load,
      }));
    }

    case "regenerate-sent": {
      // The reply stays as it is until the server restarts it (new-message, status streaming);
      // meanwhile the chat counts as busy, so nothing else is sent.
      const next = { ...state, regenerates: { ...state.regenerates, [action.clientMessageId]: action.chatId } };
      return withConversation(next, action.chatId, (conv) => ({ ...conv, streaming: conv.streaming ?? { messageId: null } }));
    }

    case "discard": {
      const key = resolveKey(state, action.key);
      if (!state.conversations[key]) return state;
      return withConversation(state, key, (conv) => ({
        ...conv,
        messages: conv.messages.filter((m) => m.clientMessageId !== action.clientMessageId || !m.sendError),
      }));
    }

    case "loaded":
      return withConversation(state, action.chat.id, (conv) => {
        // Frames may have arrived while the request was out: a message that streams here keeps
        // the longer text (join's snapshot then settles it); anything newer is kept.
        let messages: UiMessage[] = action.messages.map((saved) => {
          const live = conv.messages.find((m) => m.id === saved.id);
          if (live && live.status === "streaming" && live.content.data.length >= saved.content.data.length) return live;
          return saved;
        });
        for (const m of conv.messages) if (!messages.some((x) => x.id === m.id)) messages = upsertMessage(messages, m);
        const last = messages[messages.length - 1];
        const streaming = conv.streaming ?? (last?.role === "assistant" && last.status === "streaming" ? { messageId: last.id } : null);
        return { ...conv, chat: action.chat, messages, load: "ready", streaming };
      });

    case "load-state":
      return withConversation(state, action.chatId, (conv) => ({ ...conv, load: action.load }));

    case "gap-handled":
      return state.conversations[action.chatId] ? withConversation(state, action.chatId, (conv) => ({ ...conv, gap: false })) : state;

    case "chat-updated":
      return state.conversations[action.chat.id]
        ? withConversation(state, action.chat.id, (conv) => ({ ...conv, chat: action.chat }))
        : state;

    case "chat-removed": {
      const { [action.chatId]: _gone, ...conversations } = state.conversations;
      return { ...state, conversations };
    }

    case "project-chosen":
      return withConversation(state, resolveKey(state, action.key), (conv) => ({ ...conv, projectId: action.projectId }));

    case "restore":
      return { ...state, conversations: { ...action.conversations, ...state.conversations } };

    case "reset":
      return initialChatState();
  }
}

/** The reply being written in a conversation (the thinking indicator and the stop button). */
export function streamingReply(conv: Conversation | undefined): UiMessage | null {
  if (!conv?.streaming?.messageId) return null;
  return conv.messages.find((m) => m.id === conv.streaming!.messageId) ?? null;
}

/** True while a reply is on its way and none of its text has arrived yet. */
export function isThinking(conv: Conversation | undefined): boolean {
  if (!conv?.streaming) return false;
  const reply = streamingReply(conv);
  return !reply || reply.content.data.length === 0;
}

/**
 * The chat's last saved message when it is a reply (what Regenerate writes again), else null.
 * A refused question after it was never saved, so it does not count.
 */
export function lastReply(conv: Conversation | undefined): UiMessage | null {
  const last = conv?.messages.findLast((m) => !m.sendError && !m.clientMessageId);
  return last?.role === "assistant" ? last : null;
}

/** The last question of a conversation that was not refused (its attachments go with a Regenerate). */
export function lastSavedQuestion(conv: Conversation | undefined): UiMessage | null {
  if (!conv) return null;
  for (let i = conv.messages.length - 1; i >= 0; i--) {
    const m = conv.messages[i]!;
    if (m.role === "user" && !m.sendError) return m;
  }
  return null;
}
