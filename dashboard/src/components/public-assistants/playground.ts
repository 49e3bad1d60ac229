/**
 * The Playground's conversation, in the browser only (nothing is stored on the server): the
 * messages as the server's events build them, and the earlier turns sent with each new message.
 * Pure, unit-tested.
 */
import { playground, widgetMessages, type PlaygroundTurn, type VisitorMessage, type WidgetServerFrame, type WidgetSource } from "../../../../contract";

export type PlaygroundStatus = "sending" | "streaming" | "complete" | "stopped" | "error";

export interface PlaygroundMessage {
  /** The owner's message: its clientMessageId; an answer: the server's messageId. */
  id: string;
  role: "user" | "assistant";
  text: string;
  status: PlaygroundStatus;
  timestamp: number;
  sources?: WidgetSource[];
  /** Why it failed (a message the server or the HTTP client wrote). */
  error?: string;
}

export interface PlaygroundState {
  messages: PlaygroundMessage[];
  /** A message is on its way or being answered. */
  busy: boolean;
  /** The owner's playground messages left in this minute, after the last answer. */
  remaining: { remaining: number; limit: number } | null;
}

export type PlaygroundAction =
  | { type: "send"; id: string; text: string; at: number }
  | { type: "frame"; frame: WidgetServerFrame; at: number }
  /** The request failed: refused before the answer (`error` from the server), or cut off. */
  | { type: "failed"; id: string; error: string }
  /** The stream ended; `stopped`: the owner stopped it (the answer keeps its text so far). */
  | { type: "done"; stopped?: boolean }
  | { type: "clear" };

export const initialPlayground: PlaygroundState = { messages: [], busy: false, remaining: null };

const update = (messages: PlaygroundMessage[], id: string, change: (m: PlaygroundMessage) => PlaygroundMessage) =>
  messages.map((m) => (m.id === id ? change(m) : m));

function onFrame(state: PlaygroundState, frame: WidgetServerFrame, at: number): PlaygroundState {
  const { messages } = state;
  switch (frame.event) {
    case "new-message": {
      const { message, clientMessageId, sources } = frame.data;
      // The echo of the owner's message: accepted.
      if (clientMessageId && message.role === "user") return { ...state, messages: update(messages, clientMessageId, (m) => ({ ...m, status: "complete" })) };
      if (message.role !== "assistant") return state;
      const final: PlaygroundMessage = {
        id: message.id,
        role: "assistant",
        text: message.content.data,
        status: message.status === "stopped" ? "stopped" : "complete",
        timestamp: message.timestamp,
        ...((sources ?? message.sources)?.length ? { sources: sources ?? message.sources } : {}),
      };
      return messages.some((m) => m.id === message.id)
        ? { ...state, messages: update(messages, message.id, () => final) }
        : { ...state, messages: [...messages, final] };
    }
    case "thinking":
      if (messages.some((m) => m.id === frame.data.messageId)) return state;
      return { ...state, messages: [...messages, { id: frame.data.messageId, role: "assistant", text: "", status: "streaming", timestamp: at }] };
    case "message-delta": {
      const { messageId, delta, offset } = frame.data;
      // A delta continues the text at its offset: a repeated one changes nothing, one past the end waits for nothing.
      return {
        ...state,
        messages: update(messages, messageId, (m) => (offset > m.text.length ? m : { ...m, text: m.text.slice(0, offset) + delta })),
      };
    }
    case "message-error": {
      const { error, messageId, clientMessageId, message } = frame.data;
      if (messageId && messages.some((m) => m.id === messageId)) {
        return { ...state, messages: update(messages, messageId, (m) => ({ ...m, text: message?.content.data ?? m.text, status: "error", error })) };
      }
      if (messageId) return { ...state, messages: [...messages, { id: messageId, role: "assistant", text: message?.content.data ?? "", status: "error", error, timestamp: at }] };
      if (clientMessageId) return { ...state, messages: update(messages, clientMessageId, (m) => ({ ...m, status: "error", error })) };
      return state;
    }
    case "remaining-messages":
      return { ...state, remaining: frame.data };
  }
}

export function playgroundReducer(state: PlaygroundState, action: PlaygroundAction): PlaygroundState {
  switch (action.type) {
    case "send":
      return { ...state, busy: true, messages: [...state.messages, { id: action.id, role: "user", text: action.text, status: "sending", timestamp: action.at }] };
    case "frame":
      return onFrame(state, action.frame, action.at);
    case "failed":
      return { ...state, busy: false, messages: update(state.messages, action.id, (m) => (m.status === "sending" ? { ...m, status: "error", error: action.error } : m)) };
    case "done": {
      // A stream that ended before its answer did: the answer is stopped (the owner's doing) or
      // failed, never left spinning.
      const unfinished = (m: PlaygroundMessage): PlaygroundMessage =>
        action.stopped ? { ...m, status: "stopped" } : { ...m, status: "error", error: widgetMessages.replyFailed };
      return {
        ...state,
        busy: false,
        messages: state.messages.map((m) => (m.status === "streaming" ? unfinished(m) : m.status === "sending" ? { ...m, status: "complete" } : m)),
      };
    }
    case "clear":
      return initialPlayground;
  }
}

/**
 * The earlier turns sent with a new message, as the widget's history would hold them: the owner's
 * accepted messages and the finished answers (a failed answer is not kept, as for visitors), the
 * latest `playground.maxHistoryMessages`, and no more characters in all than
 * `playground.maxHistoryChars` (the oldest go first).
 */
export function playgroundHistory(messages: readonly PlaygroundMessage[]): PlaygroundTurn[] {
  const kept = messages.filter((m) => (m.role === "user" ? m.status === "complete" : m.status === "complete" || m.status === "stopped"));
  const turns: PlaygroundTurn[] = [];
  let chars = 0;
  for (let i = kept.length - 1; i >= 0 && turns.length < playground.maxHistoryMessages; i--) {
    const m = kept[i]!;
    if (chars + m.text.length > playground.maxHistoryChars) break;
    chars += m.text.length;
    turns.unshift({ role: m.role, content: m.text });
  }
  return turns;
}

/** A Playground message as the history's bubble shows it. */
export function asVisitorMessage(m: PlaygroundMessage): VisitorMessage {
  return {
    role: m.role,
    content: { type: "text", data: m.text },
    files: [],
    timestamp: m.timestamp,
    ...(m.sources ? { sources: m.sources } : {}),
  };
}
