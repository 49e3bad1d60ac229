import { Server, type Connection, type ConnectionContext, type WSMessage } from "partyserver";
import {
  chatLimits,
  chatMessages,
  type Chat,
  type ChatListResponse,
  chatSocketClose,
  guestSession,
  isGuestRoomId,
  parseClientFrame,
  publicRoutes,
  serverMessages,
  type Project,
  type ServerFrame,
  type UserSettings,
} from "../../contract";
import { ActiveReplies, type ActiveReply } from "../chat/active-replies";
import { consumeGuestMessage, peekGuestQuota } from "../chat/guest-quota";
import { importLegacyUserData, LEGACY_IMPORT_MARKER } from "../chat/legacy-import";
import { readIdentity, type RoomIdentity } from "../chat/room-identity";
import { roomProjects, type ProjectChanges } from "../chat/room-projects";
import { RoomStore, type ChatChanges, type ChatDetailPage, type ListChatsInput, type MessageCursor } from "../chat/room-store";
import { runTurn, TurnRefused, type SendMessage } from "../chat/run-turn";
import { TokenRevocations, type RevokedToken } from "../chat/token-revocations";
import type { Env } from "../env";
import { getModelProvider } from "../models";

interface ConnectionState {
  identity: RoomIdentity;
  /** Chats this connection joined (join-{room}); bounded by chatLimits.maxWatchedRooms. */
  watching: string[];
}
type ChatConnection = Connection<ConnectionState>;

/**
 * The realtime chat room of one signed-in user (`user-<id>`) or one guest (their guest id), on
 * partyserver, hibernating. The worker authenticates every socket before it reaches the room
 * (routes/parties.ts). Every tab of the owner is a connection here and sees every frame.
 *
 * A send-message handler awaits the whole turn (runTurn), so the room stays alive while the model
 * writes even if every socket dropped; a socket that comes back gets the text so far, then the rest
 * (onConnect / join).
 *
 * The room owns its user's data in its own SQLite (chat/room-store.ts): a signed-in user's chats,
 * messages, projects and settings, served to the REST routes through the RPCs below, so neither a
 * turn nor the history touches D1; a guest's chats, erased after 24 h idle.
 */
export class ChatRoom extends Server<Env & Cloudflare.Env> {
  static override options = { hibernate: true };

  private readonly active = new ActiveReplies();
  private readonly store = new RoomStore(this.ctx.storage);
  /** The move of the user's legacy D1 rows, while it runs (chat/legacy-import.ts). */
  private importing: Promise<number> | null = null;
  private imported = false;
  private revocationsInstance: TokenRevocations | undefined;

  private get revocations(): TokenRevocations {
    this.revocationsInstance ??= new TokenRevocations(this.ctx.storage);
    return this.revocationsInstance;
  }

  private get isGuestRoom() {
    return isGuestRoomId(this.name);
  }

  /**
   * The room's store, once it holds everything of its user: the first use of a signed-in user's
   * room moves their legacy D1 rows in (once in the room's life; later wakes read only the room's
   * marker). Concurrent callers wait for the same move; a failed move is tried again by the next.
   */
  private async openStore(): Promise<RoomStore> {
    if (this.imported || this.isGuestRoom) return this.store;
    this.importing ??= importLegacyUserData(this.env.DB, this.store, this.name.slice("user-".length)).finally(() => {
      this.importing = null;
    });
    await this.importing;
    this.imported = true;
    return this.store;
  }

  override async onConnect(connection: ChatConnection, ctx: ConnectionContext) {
    const identity = readIdentity(ctx.request, this.name);
    if (!identity) {
      // Only the worker reaches a room, and it always names the identity: this is a wiring bug.
      connection.close(4003, "Forbidden");
      return;
    }
    // State first, before any await: a frame arriving meanwhile is handled (and checked) by onMessage.
    connection.setState({ identity, watching: [] });
    if (identity.kind === "user" && (await this.revocations.isRevoked(identity.tokenId))) {
      // Authenticated just before its token was revoked, arrived just after: refused all the same.
      connection.close(chatSocketClose.signedOut.code, chatSocketClose.signedOut.reason);
      return;
    }
    for (const reply of this.active.all()) this.sendSnapshot(connection, reply);
    if (identity.kind === "guest") {
      await this.keepGuestChatsAlive();
      const quota = await peekGuestQuota(this.env, identity.guestId, identity.ip);
      send(connection, { event: "remaining-messages", data: { remaining: quota.remaining, limit: quota.limit, scope: quota.scope } });
    }
  }

  override async onMessage(connection: ChatConnection, message: WSMessage) {
    const state = connection.state;
    if (!state) return;
    if (state.identity.kind === "user" && (await this.revocations.isRevoked(state.identity.tokenId))) {
      // A frame that raced the close of a revoked socket: refused, never answered.
      send(connection, { event: "message-error", data: { error: serverMessages.sessionExpired } });
      connection.close(chatSocketClose.signedOut.code, chatSocketClose.signedOut.reason);
      return;
    }
    const parsed = parseClientFrame(typeof message === "string" ? message : null);
    if (!parsed.ok) {
      send(connection, { event: "message-error", data: { error: parsed.error } });
      return;
    }
    const frame = parsed.frame;
    switch (frame.event) {
      case "send-message":
        return this.onSendMessage(connection, state.identity, frame.data);
      case "stop":
        this.active.stop(frame.data.chatId);
        return;
      case "join":
        return this.onJoin(connection, frame.room);
      case "leave":
        connection.setState((s) => ({ identity: s!.identity, watching: s!.watching.filter((room) => room !== frame.room) }));
        return;
    }
  }

  // ── Data RPCs of services/{chats,projects,settings} (a guest's room: the chat ones) ──────────
  // Null or false: no such record in this room (the service answers 404). A deleted account's
  // room finds nothing and writes nothing: a call that was already on its way changes nothing.

  async listChats(input: ListChatsInput): Promise<ChatListResponse> {
    return this.withData((store) => store.listChats(input), { chats: [], total: 0, totalPages: 1, currentPage: input.page });
  }
  /** A page of the chat's messages (room-store.ts: bounded in bytes); services/chats joins the pages. */
  async chatDetailPage(chatId: string, after: MessageCursor | null): Promise<ChatDetailPage | null> {
    return this.withData((store) => store.chatDetailPage(chatId, after), null);
  }
  async updateChat(chatId: string, changes: ChatChanges): Promise<Chat | null> {
    return this.withData((store) => store.updateChat(chatId, changes), null);
  }
  async deleteChat(chatId: string): Promise<boolean> {
    return this.withData((store) => {
      this.active.stop(chatId);
      return store.deleteChat(chatId);
    }, false);
  }
  async listProjects(): Promise<Project[]> {
    return this.withData((store) => roomProjects.list(store), []);
  }
  async getProject(projectId: string): Promise<Project | null> {
    return this.withData((store) => roomProjects.get(store, projectId), null);
  }
  /** A project's chats (the chat list's shape); null when there is no such project. */
  async listProjectChats(projectId: string, input: ListChatsInput): Promise<ChatListResponse | null> {
    return this.withData((store) => (roomProjects.get(store, projectId) ? store.listChats({ ...input, projectId }) : null), null);
  }
  /** Null: the account was deleted meanwhile. */
  async createProject(input: { name: string; instructions: string }): Promise<Project | null> {
    return this.withData((store) => roomProjects.create(store, input), null);
  }
  async updateProject(projectId: string, changes: ProjectChanges): Promise<Project | null> {
    return this.withData((store) => roomProjects.update(store, projectId, changes), null);
  }
  async deleteProject(projectId: string): Promise<boolean> {
    return this.withData((store) => roomProjects.delete(store, projectId), false);
  }
  async settings(): Promise<UserSettings> {
    return this.withData((store) => store.settings(), { model: null });
  }
  /** The chosen model; the next message reads it from here (no copy to refresh). Null: the account was deleted meanwhile. */
  async saveSettings(settings: UserSettings): Promise<UserSettings | null> {
    return this.withData((store) => store.saveSettings(settings), null);
  }

  /** A data RPC's work on the opened store, or `closed` once the account was deleted. */
  private async withData<T>(use: (store: RoomStore) => T, closed: T): Promise<T> {
    if (await this.revocations.isAccountClosed()) return closed;
    // A guest's call counts as activity; it also means a room made by a call alone is erased in a day.
    if (this.isGuestRoom) await this.keepGuestChatsAlive();
    return use(await this.openStore());
  }

  /**
   * Account deletion, before the account's D1 rows go: every chat, message, project and setting
   * of the room is erased, replies being written stop, and the legacy move is marked done (the
   * same D1 batch deletes any legacy row it had not moved yet).
   */
  async eraseAccountData(): Promise<void> {
    for (const reply of this.active.all()) this.active.stop(reply.chatId);
    // The marker in the same transaction: a legacy move still running stops at its next write.
    this.store.transaction(() => {
      this.store.eraseUserData();
      this.store.setState(LEGACY_IMPORT_MARKER, "done");
    });
    this.imported = true;
  }

  /** Tests: how many chats, messages and projects the room holds. */
  async footprint() {
    return this.store.footprint();
  }

  /**
   * RPC after a revocation committed in D1 (logout, password change or reset, account deletion):
   * records the revoked tokens (so a socket already on its way is refused in onConnect) and
   * closes the sockets they opened. `replacedTokenId`: the token the password was changed with;
   * its sockets close with `credentialsReplaced`, so that client reconnects with its new token.
   * `everyConnection` (account deletion) closes Firebase-opened sockets too and closes the room
   * for good. Returns how many
   * sockets were closed.
   */
  async revokeTokens(input: { tokens: RevokedToken[]; replacedTokenId?: string; everyConnection?: boolean }): Promise<number> {
    await this.revocations.add(input.tokens);
    if (input.everyConnection) {
      // The account is gone: a socket authenticated a moment before (by any credential) is
      // refused when it arrives, and replies being written stop (their chats are deleted).
      await this.revocations.closeAccount();
      await this.eraseAccountData();
    }
    const revoked = new Set(input.tokens.map((t) => t.id));
    let closed = 0;
    for (const connection of this.getConnections<ConnectionState>()) {
      const identity = connection.state?.identity;
      const tokenId = identity?.kind === "user" ? identity.tokenId : undefined;
      if (!input.everyConnection && !(tokenId && revoked.has(tokenId))) continue;
      const close = tokenId && tokenId === input.replacedTokenId ? chatSocketClose.credentialsReplaced : chatSocketClose.signedOut;
      try {
        connection.close(close.code, close.reason);
        closed += 1;
      } catch {
        // already closing
      }
    }
    return closed;
  }

  /** Guests only: their chats are erased once the room has been idle this long. */
  override async onAlarm() {
    if (!this.isGuestRoom) return;
    if (this.active.all().length > 0 || [...this.getConnections()].length > 0) {
      await this.keepGuestChatsAlive();
      return;
    }
    await this.ctx.storage.deleteAll();
    this.store.forgetSchema();
  }

  private async onSendMessage(connection: ChatConnection, identity: RoomIdentity, data: SendMessage) {
    const { clientMessageId } = data;
    const refuse = (error: string, chatId = data.chatId) =>
      send(connection, { event: "message-error", data: { error, chatId, clientMessageId } });
    const isGuest = identity.kind === "guest";
    if (data.isGuest !== isGuest || (identity.kind === "user" && data.userId !== undefined && data.userId !== identity.userId)) {
      return refuse(chatMessages.identityMismatch);
    }

    let remaining: { remaining: number; limit: number; scope: "guest" | "network" } | null = null;
    if (identity.kind === "guest") {
      await this.keepGuestChatsAlive();
      const quota = await consumeGuestMessage(this.env, identity.guestId, identity.ip);
      remaining = { remaining: quota.remaining, limit: quota.limit, scope: quota.scope };
      if (!quota.allowed) {
        const exhausted = quota.scope === "network" ? chatMessages.guestNetworkQuotaExhausted : chatMessages.guestQuotaExhausted;
        refuse(exhausted(publicRoutes.register));
        this.broadcastFrame({ event: "remaining-messages", data: remaining });
        return;
      }
    }

    const store = await this.storeForFrame(connection, identity, (error) => refuse(error));
    if (!store) return;
    try {
      await runTurn(
        { store, provider: getModelProvider(this.env), active: this.active, broadcast: (f) => this.broadcastFrame(f) },
        data,
      );
    } catch (error) {
      if (error instanceof TurnRefused) refuse(error.message, error.chatId);
      else {
        console.error(JSON.stringify({ event: "chat-turn-failed", room: this.name, error: String(error) }));
        this.broadcastFrame({ event: "message-error", data: { error: chatMessages.replyFailed, chatId: data.chatId, clientMessageId } });
      }
    } finally {
      if (remaining) this.broadcastFrame({ event: "remaining-messages", data: remaining });
    }
  }

  /**
   * join-{chatId}: watch a chat and catch up on it. A reply in progress comes as `thinking` and
   * its text so far (offset 0), the rest follows as deltas; otherwise the chat's last reply comes
   * as `new-message`, so a client that missed the end of a stream gets the finished message.
   */
  private async onJoin(connection: ChatConnection, chatId: string) {
    const reply = this.active.get(chatId);
    if (reply) {
      this.watch(connection, chatId);
      this.sendSnapshot(connection, reply);
      return;
    }
    const store = await this.storeForFrame(connection, connection.state!.identity, (error) =>
      send(connection, { event: "message-error", data: { error, chatId } }),
    );
    if (!store) return;
    const chat = await store.findChat(chatId);
    if (!chat) {
      send(connection, { event: "message-error", data: { error: chatMessages.chatNotFound, chatId } });
      return;
    }
    this.watch(connection, chatId);
    const [last] = await store.recentMessages(chatId, 1);
    if (!last || last.role !== "assistant") return;
    const { instructions: _instructions, ...publicChat } = chat;
    let message = last;
    if (last.status === "streaming" && !this.active.get(chatId)) {
      // Saved as streaming but no longer being written: the room restarted mid-reply.
      message = { ...last, status: "error", error: chatMessages.replyInterrupted };
      await store.saveReply(message, chat.updatedAt);
    }
    send(connection, { event: "new-message", data: { message, chat: publicChat } });
  }

  /**
   * The store for a frame's work. Opening it may wait for the legacy move (first use), so the
   * frame's token is checked again after: a revocation that came meanwhile refuses the frame and
   * closes the socket. Null when refused (the frame was answered through `refuse` or the close).
   */
  private async storeForFrame(connection: ChatConnection, identity: RoomIdentity, refuse: (error: string) => void): Promise<RoomStore | null> {
    const opened = await this.openStore().catch((error: unknown) => {
      console.error(JSON.stringify({ event: "chat-room-open-failed", room: this.name, error: String(error) }));
      return null;
    });
    if (identity.kind === "user" && (await this.revocations.isRevoked(identity.tokenId))) {
      send(connection, { event: "message-error", data: { error: serverMessages.sessionExpired } });
      connection.close(chatSocketClose.signedOut.code, chatSocketClose.signedOut.reason);
      return null;
    }
    if (!opened) refuse(chatMessages.roomUnavailable);
    return opened;
  }

  private watch(connection: ChatConnection, chatId: string) {
    connection.setState((s) => {
      const watching = [...s!.watching.filter((room) => room !== chatId), chatId].slice(-chatLimits.maxWatchedRooms);
      return { identity: s!.identity, watching };
    });
  }

  private sendSnapshot(connection: ChatConnection, reply: ActiveReply) {
    if (!reply.messageId) return;
    send(connection, { event: "thinking", data: { chatId: reply.chatId, messageId: reply.messageId } });
    if (reply.text) send(connection, { event: "message-delta", data: { chatId: reply.chatId, messageId: reply.messageId, delta: reply.text, offset: 0 } });
  }

  private broadcastFrame(frame: ServerFrame) {
    this.broadcast(JSON.stringify(frame));
  }

  private async keepGuestChatsAlive() {
    await this.ctx.storage.setAlarm(Date.now() + guestSession.idleTtlMs);
  }
}

/** Sends one frame to one connection; a socket that is already closing is skipped. */
function send(connection: Connection, frame: ServerFrame) {
  try {
    connection.send(JSON.stringify(frame));
  } catch {
    // closed meanwhile: the client catches up on reconnect
  }
}
