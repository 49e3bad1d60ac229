import type { Chat, ChatMessage } from "../../contract";

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
}
