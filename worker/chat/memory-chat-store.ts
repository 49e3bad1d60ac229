import type { ChatMessage, MessageVersion } from "../../contract";
import { withVersions } from "./reply-versions";
import type { ChatStore, ChatWithInstructions, RegenerateRecord, TurnRecord } from "./store";

/** A ChatStore in memory, for unit tests of the turn logic (no D1, no Durable Object). */
export class MemoryChatStore implements ChatStore {
  chats = new Map<string, ChatWithInstructions>();
  messages = new Map<string, ChatMessage>();
  projects = new Map<string, string>();
  model: string | null = null;
  failStart = false;
  /** A regenerated reply's earlier versions and when its current one started. */
  versions = new Map<string, { earlier: MessageVersion[]; currentAt: number }>();

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
  async startRegenerate({ reply, at, keepEarlier }: RegenerateRecord) {
    const old = this.messages.get(reply.id);
    if (!old || old.chatId !== reply.chatId) return null;
    const known = this.versions.get(reply.id);
    const previous: MessageVersion = { content: old.content, status: old.status, error: old.error ?? null, createdAt: known?.currentAt ?? old.timestamp };
    const earlier = [...(known?.earlier ?? []), previous].slice(-keepEarlier);
    this.versions.set(reply.id, { earlier, currentAt: at });
    this.messages.set(reply.id, { ...old, content: reply.content, status: reply.status, error: reply.error ?? null });
    const chat = this.chats.get(reply.chatId);
    if (chat) chat.updatedAt = at;
    return [...earlier];
  }
  async loadVersions(message: ChatMessage) {
    const known = this.versions.get(message.id);
    return known ? withVersions(message, known.earlier, known.currentAt) : message;
  }
  async setTitle(chatId: string, title: string, replacing: string) {
    const chat = this.chats.get(chatId);
    if (!chat || chat.title !== replacing) return false;
    chat.title = title;
    return true;
  }
}
