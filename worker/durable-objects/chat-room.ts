import type { Connection, ConnectionContext, WSMessage } from "partyserver";
import { chatMessages, chatSocketClose, parseClientFrame, publicRoutes, realtime, serverMessages, type ServerFrame } from "../../contract";
import { frameTarget, sendFrame as send, sendSnapshot, httpFrameSink, watchChat, type ConnectionState, type FrameSink, type HttpFrameSink } from "../chat/frame-sink";
import { consumeGuestMessage, peekGuestQuota } from "../chat/guest-quota";
import { readIdentity, type RoomIdentity } from "../chat/room-identity";
import type { RoomStore } from "../chat/room-store";
import { runRegenerate, type Regenerate } from "../chat/regenerate-turn";
import { runTurn, TurnRefused, type SendMessage } from "../chat/run-turn";
import type { RevokedToken } from "../chat/token-revocations";
import { getModelProvider } from "../models";
import { ChatRoomData } from "./chat-room-data";

/** A socket of the room, or one HTTP request's frame stream (chat/frame-sink.ts). */
type ChatConnection = FrameSink;
/** A guest's messages left (remaining-messages). */
type Remaining = { remaining: number; limit: number; scope: "guest" | "network" };

/**
 * The realtime chat room of one signed-in user (`user-<id>`) or one guest (their guest id), on
 * partyserver, hibernating. The worker authenticates every socket before it reaches the room
 * (routes/parties.ts). Every tab of the owner is a connection here and sees every frame.
 *
 * A send-message handler awaits the whole turn (runTurn), so the room stays alive while the model
 * writes even if every socket dropped; a socket that comes back gets the text so far, then the rest
 * (onConnect / join). A client whose network blocks WebSockets POSTs the same frames to
 * /api/chat/frames, which the worker authenticates and hands here (onRequest): the answer streams
 * the frames back (chat/frame-sink.ts).
 *
 * The room's data and its RPCs for the REST routes are the storage half, ChatRoomData
 * (chat-room-data.ts); a guest's chats are erased after 24 h idle (its alarm, chat-room-data.ts).
 */
export class ChatRoom extends ChatRoomData {
  static override options = { hibernate: true };
  /** The HTTP frame streams open now; they get every broadcast frame, as sockets do. */
  private readonly httpSinks = new Set<HttpFrameSink>();

  override async onConnect(connection: Connection<ConnectionState>, ctx: ConnectionContext) {
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
    for (const reply of this.active.all()) sendSnapshot(connection, reply);
    if (identity.kind === "guest") {
      await this.keepGuestChatsAlive();
      const quota = await peekGuestQuota(this.env, identity.guestId, identity.ip);
      send(connection, { event: "remaining-messages", data: { remaining: quota.remaining, limit: quota.limit, scope: quota.scope } });
    } else {
      const left = this.userRemaining(identity);
      if (left) send(connection, { event: "remaining-messages", data: left });
    }
  }

  override async onMessage(connection: Connection<ConnectionState>, message: WSMessage) {
    return this.onFrame(connection, typeof message === "string" ? message : null);
  }

  /**
   * POST /api/chat/frames, authenticated by the worker (routes/chat-frames.ts): one client frame,
   * answered with the frames it causes as server-sent events. A join stays open until the reply it
   * caught up on ends; a send-message or regenerate until its turn ends.
   */
  override async onRequest(request: Request): Promise<Response> {
    const identity = readIdentity(request, this.name);
    if (!identity || request.method !== "POST") return new Response(null, { status: 404 });
    if (identity.kind === "user" && (await this.revocations.isRevoked(identity.tokenId))) return new Response(null, { status: 401 });
    const raw = await request.text();
    const sink = httpFrameSink(identity, frameTarget(parseClientFrame(raw)));
    // A user's tabs hold a few streams at most: past the bound, the oldest ends (its client joins again).
    if (this.httpSinks.size >= realtime.httpMaxStreams) this.httpSinks.values().next().value?.close();
    this.httpSinks.add(sink);
    void sink.closed.then(() => this.httpSinks.delete(sink));
    // The work done, the stream ends, unless a chat it joined has a reply still being written.
    void this.onFrame(sink, raw).finally(() => sink.closeAfter(sink.state?.watching.map((chatId) => this.active.get(chatId)?.released).find(Boolean) ?? null));
    return sink.response;
  }

  private async onFrame(connection: ChatConnection, raw: string | null) {
    const state = connection.state;
    if (!state) return;
    if (state.identity.kind === "user" && (await this.revocations.isRevoked(state.identity.tokenId))) {
      // A frame that raced the close of a revoked socket: refused, never answered.
      send(connection, { event: "message-error", data: { error: serverMessages.sessionExpired } });
      connection.close(chatSocketClose.signedOut.code, chatSocketClose.signedOut.reason);
      return;
    }
    const parsed = parseClientFrame(raw);
    if (!parsed.ok) {
      send(connection, { event: "message-error", data: { error: parsed.error } });
      return;
    }
    const frame = parsed.frame;
    switch (frame.event) {
      case "send-message":
        return this.onSendMessage(connection, state.identity, frame.data);
      case "regenerate":
        return this.onRegenerate(connection, state.identity, frame.data);
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

  /**
   * RPC after a revocation committed in D1 (logout, password change or reset, account deletion):
   * records the revoked tokens (so a socket already on its way is refused in onConnect) and
   * closes the sockets (and HTTP frame streams) they opened. `replacedTokenId`: the token the
   * password was changed with; its sockets close with `credentialsReplaced`, so that client
   * reconnects with its new token. `everyConnection` (account deletion) closes Firebase-opened
   * sockets too and closes the room for good (`keepWorkspace`: its workspace's budget stays). Returns how many were closed.
   */
  async revokeTokens(input: { tokens: RevokedToken[]; replacedTokenId?: string; everyConnection?: boolean; keepWorkspace?: boolean }): Promise<number> {
    await this.revocations.add(input.tokens);
    if (input.everyConnection) {
      // The account is gone: a socket authenticated a moment before (by any credential) is
      // refused when it arrives, and replies being written stop (their chats are deleted).
      await this.revocations.closeAccount();
      await this.eraseAccountData({ keepWorkspace: input.keepWorkspace === true });
    }
    const revoked = new Set(input.tokens.map((t) => t.id));
    let closed = 0;
    for (const connection of [...this.getConnections<ConnectionState>(), ...this.httpSinks]) {
      const identity = connection.state?.identity;
      const tokenId = identity?.kind === "user" ? identity.tokenId : undefined;
      if (!input.everyConnection && !(tokenId && revoked.has(tokenId))) continue;
      const close = tokenId && tokenId === input.replacedTokenId ? chatSocketClose.credentialsReplaced : chatSocketClose.signedOut;
      // A frame stream has no close code: it is told why in a last frame.
      if (this.httpSinks.has(connection as HttpFrameSink)) send(connection, { event: "message-error", data: { error: close.reason } });
      try {
        connection.close(close.code, close.reason);
        closed += 1;
      } catch {
        // already closing
      }
    }
    return closed;
  }

  private async onSendMessage(connection: ChatConnection, identity: RoomIdentity, data: SendMessage) {
    const { clientMessageId } = data;
    const refuse = (error: string, chatId = data.chatId) =>
      send(connection, { event: "message-error", data: { error, chatId, clientMessageId } });
    const isGuest = identity.kind === "guest";
    if (data.isGuest !== isGuest || (identity.kind === "user" && data.userId !== undefined && data.userId !== identity.userId)) {
      return refuse(chatMessages.identityMismatch);
    }

    let remaining: Remaining | null = null;
    if (identity.kind === "guest") {
      const quota = await this.countGuestMessage(identity);
      remaining = quota.remaining;
      if (quota.refusal) {
        refuse(quota.refusal);
        this.broadcastFrame({ event: "remaining-messages", data: remaining });
        return;
      }
    }

    const store = await this.storeForFrame(connection, identity, (error) => refuse(error));
    if (!store) return;
    try {
      await runTurn(
        { store, provider: getModelProvider(this.env), active: this.active, broadcast: (f) => this.broadcastFrame(f), admit: this.admitUserTurn(identity) },
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
   * regenerate: the chat's last reply written again in place (chat/regenerate-turn.ts). The socket
   * is the room owner's (authenticated by the worker, its token checked again here), as for a
   * send-message. It counts as a message (a guest's quota, a user's limits), once it is known to be
   * allowed (a refused one, e.g. not the last reply, costs nothing); past a limit, it is refused
   * with the limit's own text. A refusal is `message-error` with `chatId` and the frame's
   * `clientMessageId` (never `messageId`): nothing changed.
   */
  private async onRegenerate(connection: ChatConnection, identity: RoomIdentity, data: Regenerate) {
    const { chatId, clientMessageId } = data;
    const refuse = (error: string) => send(connection, { event: "message-error", data: { error, chatId, clientMessageId } });
    const store = await this.storeForFrame(connection, identity, refuse);
    if (!store) return;
    let remaining: Remaining | null = null;
    const admit =
      identity.kind === "guest"
        ? async () => {
            const quota = await this.countGuestMessage(identity);
            remaining = quota.remaining;
            return quota.refusal;
          }
        : this.admitUserTurn(identity);
    try {
      await runRegenerate({ store, provider: getModelProvider(this.env), active: this.active, broadcast: (f) => this.broadcastFrame(f), admit }, data);
    } catch (error) {
      if (error instanceof TurnRefused) refuse(error.message);
      else {
        console.error(JSON.stringify({ event: "chat-regenerate-failed", room: this.name, error: String(error) }));
        this.broadcastFrame({ event: "message-error", data: { error: chatMessages.replyFailed, chatId: data.chatId, messageId: data.messageId } });
      }
    } finally {
      if (remaining) this.broadcastFrame({ event: "remaining-messages", data: remaining });
    }
  }

  /** Counts one guest message (guest-quota.ts); `refusal`: the quota's text when none is left. */
  private async countGuestMessage(identity: Extract<RoomIdentity, { kind: "guest" }>): Promise<{ remaining: Remaining; refusal: string | null }> {
    await this.keepGuestChatsAlive();
    const quota = await consumeGuestMessage(this.env, identity.guestId, identity.ip);
    const remaining = { remaining: quota.remaining, limit: quota.limit, scope: quota.scope };
    if (quota.allowed) return { remaining, refusal: null };
    const exhausted = quota.scope === "network" ? chatMessages.guestNetworkQuotaExhausted : chatMessages.guestQuotaExhausted;
    return { remaining, refusal: exhausted(publicRoutes.register) };
  }

  /**
   * join-{chatId}: watch a chat and catch up on it. A reply in progress comes as `thinking` and
   * its text so far (offset 0), the rest follows as deltas; otherwise the chat's last reply comes
   * as `new-message`, so a client that missed the end of a stream gets the finished message.
   */
  private async onJoin(connection: ChatConnection, chatId: string) {
    const reply = this.active.get(chatId);
    if (reply) {
      watchChat(connection, chatId);
      sendSnapshot(connection, reply);
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
    watchChat(connection, chatId);
    const [last] = await store.recentMessages(chatId, 1);
    if (!last || last.role !== "assistant") return;
    const { instructions: _instructions, ...publicChat } = chat;
    let message = last;
    if (last.status === "streaming" && !this.active.get(chatId)) {
      // Saved as streaming but no longer being written: the room restarted mid-reply.
      message = { ...last, status: "error", error: chatMessages.replyInterrupted };
      await store.saveReply(message, chat.updatedAt);
    }
    // A regenerated reply comes with its versions, so the tab keeps its ‹ 1/2 ›.
    send(connection, { event: "new-message", data: { message: await store.loadVersions(message), chat: publicChat } });
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

  protected broadcastFrame(frame: ServerFrame) {
    this.broadcast(JSON.stringify(frame));
    for (const sink of this.httpSinks) sink.deliver(frame);
  }
}

declare module "../env" {
  /** What a stub of this object can be asked (`Env`'s namespace names this interface). */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the class is the interface
  interface ChatRoomRpc extends ChatRoom {}
}
