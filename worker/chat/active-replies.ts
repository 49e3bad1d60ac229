import type { ChatMessage } from "../../contract";

/** A reply the model is writing right now, held in the room's memory while its handler runs. */
export interface ActiveReply {
  chatId: string;
  /** Set once the reply's row exists. */
  messageId: string | null;
  text: string;
  /**
   * A regenerate only: the reply as it stood when the new version started (status streaming, its
   * earlier versions), sent before the snapshot to a tab that (re)joins, so it drops the old text.
   */
  regenerating?: ChatMessage;
  readonly controller: AbortController;
  /** Settles once the reply is released (finished, stopped, failed, or its chat deleted). */
  readonly released: Promise<void>;
}

/**
 * The replies in progress in one room, one per chat at most. `reserve` is synchronous, so two
 * send-message frames for the same chat cannot both pass between an await and the check.
 */
export class ActiveReplies {
  private readonly byChat = new Map<string, ActiveReply>();
  private readonly onRelease = new WeakMap<ActiveReply, () => void>();

  /** Claims the chat for a new reply; null when one is already being written there. */
  reserve(chatId: string): ActiveReply | null {
    if (this.byChat.has(chatId)) return null;
    let resolve!: () => void;
    const released = new Promise<void>((r) => (resolve = r));
    const reply: ActiveReply = { chatId, messageId: null, text: "", controller: new AbortController(), released };
    this.onRelease.set(reply, resolve);
    this.byChat.set(chatId, reply);
    return reply;
  }

  get(chatId: string): ActiveReply | undefined {
    return this.byChat.get(chatId);
  }

  all(): ActiveReply[] {
    return [...this.byChat.values()];
  }

  /** Aborts the chat's reply (its text so far is kept by the turn); false when there is none. */
  stop(chatId: string): boolean {
    const reply = this.byChat.get(chatId);
    if (!reply) return false;
    reply.controller.abort();
    return true;
  }

  release(reply: ActiveReply): void {
    if (this.byChat.get(reply.chatId) === reply) this.byChat.delete(reply.chatId);
    this.onRelease.get(reply)?.();
  }
}
