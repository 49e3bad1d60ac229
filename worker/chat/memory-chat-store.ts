import type { ChatMessage } from "../../contract";
import type { ChatStore, ChatWithInstructions, TurnRecord } from "./store";

/** A ChatStore in memory, for unit tests of the turn logic (no D1, no Durable Object). */
export class MemoryChatStore implements ChatStore {
  chats = new Map<string, ChatWithInstructions>();
  messages = new Map<string, ChatMessage>();
  projects = new Map<string, string>();
  model: string | null = null;
  failStart = false;

  async findChat(chatId: string) {
    const chat = this.chats.get(chatId);
    return chat ? { ...chat } : null;
  }
  async findProjectInstructions(projectId: string) {
    return this.projects.get(projectId) ?? null;
  }
  async recentMessages(chatId: string, limit: number) {
    return [...this.messages.values()].filter((m) => m.chatId === chatId).sort((a, b) => a.timestamp - b.timestamp).slice(-limit);
  }
  async preferredModel() {
    return this.model;
  }
  async startTurn(record: TurnRecord) {
    if (this.failStart) throw new Error("storage down");
    if (record.isNewChat) this.chats.set(record.chat.id, { ...record.chat, instructions: this.projects.get(record.chat.projectId ?? "") ?? "" });
    this.messages.set(record.userMessage.id, record.userMessage);
    this.messages.set(record.reply.id, record.reply);
  }
  async saveReply(reply: ChatMessage, at: number, title?: string) {
    const chat = this.chats.get(reply.chatId);
    if (!chat) return null;
    this.messages.set(reply.id, reply);
    chat.updatedAt = at;
    if (title !== undefined && !chat.title) chat.title = title;
    return { title: chat.title };
  }
  async setTitle(chatId: string, title: string, replacing: string) {
    const chat = this.chats.get(chatId);
    if (!chat || chat.title !== replacing) return false;
    chat.title = title;
    return true;
  }
}
