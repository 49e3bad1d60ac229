import type { Chat, ChatMessage, MessageVersion } from "../../contract";

/** A chat with what a turn needs from its project. */
export interface ChatWithInstructions extends Chat {
  /** The project's instructions (the system prompt); empty outside a project. */
  instructions: string;
}

export interface TurnRecord {
  chat: Chat;
  /** True when the chat is created by this turn. */
  isNewChat: boolean;
  userMessage: ChatMessage;
  /** The reply's row, saved with status streaming before the model is called. */
  reply: ChatMessage;
}

/** A regenerate's start: the reply's current text becomes an earlier version, the new one begins. */
export interface RegenerateRecord {
  /** The reply's row as the new version starts: its own id, empty text, status streaming. */
  reply: ChatMessage;
  /** When the new version starts; also the chat's activity time. */
  at: number;
  /** Earlier versions kept at most: the oldest beyond go. */
  keepEarlier: number;
}

/**
 * Where a room keeps its chats: the room's own SQLite (RoomStore), for a signed-in user and a
 * guest alike; MemoryChatStore in unit tests. Everything in a room is its owner's.
 */
export interface ChatStore {
  findChat(chatId: string): Promise<ChatWithInstructions | null>;
  /** The project's instructions; null when the project is not the owner's (or guests, who have none). */
  findProjectInstructions(projectId: string): Promise<string | null>;
  /** The last `limit` messages of the chat, oldest first. */
  recentMessages(chatId: string, limit: number): Promise<ChatMessage[]>;
  /** The owner's chosen model (the room's settings), null for the default. */
  preferredModel(): Promise<string | null>;
  /** Saves the new chat (if any), the user's message and the empty reply, all or nothing. */
  startTurn(record: TurnRecord): Promise<void>;
  /**
   * Saves the reply's text and status, and the chat's activity time (and title, when given, only
   * over an empty one: a rename made meanwhile wins), together. Returns the chat's title as
   * stored, or null when the chat is gone (deleted while the reply was written).
   */
  saveReply(reply: ChatMessage, chatUpdatedAt: number, title?: string): Promise<{ title: string } | null>;
  /** Sets the chat's title if it is still `replacing` (a rename made meanwhile wins); false otherwise. */
  setTitle(chatId: string, title: string, replacing: string): Promise<boolean>;
  /**
   * Keeps the reply's current text, status and error as its newest earlier version (dropping the
   * oldest past `keepEarlier`) and saves the new version's start, with the chat's activity time,
   * all or nothing. Returns the earlier versions, oldest first; null when the reply is gone.
   */
  startRegenerate(record: RegenerateRecord): Promise<MessageVersion[] | null>;
  /** The message with its versions when it was regenerated before (reply-versions.ts), else as it is. */
  loadVersions(message: ChatMessage): Promise<ChatMessage>;
}
