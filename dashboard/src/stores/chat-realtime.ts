/**
 * The chat's realtime side: the connection, sending, and which chats this tab watches.
 *
 * - The connection (src/realtime) is rebuilt whenever the auth state or the user changes (spec
 *   section 4): the old one is closed, a new one opens only for a signed-in user (room
 *   `user-<id>`, their credential) or a guest (room = guest id). Its status becomes the spec's
 *   toasts (policy.ts); every frame goes through the reducer (stores/chat.ts).
 * - Guests' chats exist only in their room and in this browser session (session storage), as the
 *   spec keeps guests to one session; signed-in users' chats are read from GET /api/chats.
 */
import { chatLimits, realtimeMessages, storageKeys, toast as toastTiming, userRoomId, type InboxFrameData, type ServerFrame, type TeamChangedData } from "../../../contract";
import { initialChatState, isPendingKey, lastReply, lastSavedQuestion, resolveKey, type Attachment, type Conversation, type UiMessage } from "../components/chat/chat-reducer";
import { ApiError } from "../lib/api";
import { chatApi } from "../lib/chat-api";
import { readItem, readLocalThenSession, readToken, writeItem } from "../lib/storage";
import { createChatConnection, messageErrorToast, statusToast, type ChatConnection, type ConnectionStatus } from "../realtime";
import { authStore, type AuthState } from "./auth";
import { dispatch, emptyList, getState, loadList, newLocalId, setState, upsertListedChat } from "./chat";
import { toast } from "./toast";

let connection: ChatConnection | null = null;
/** The chats this tab watches (join-{chatId}); joined again on every new connection. */
const watched = new Set<string>();
let connectionKey: string | null = null;
let started = false;

// ---- guests: conversations kept for the browser session -----------------------------------------

const GUEST_CHATS_PREFIX = "tala:guestChats:";
const GUEST_CHATS_KEPT = 20;

/**
 * Saves a guest's chats to session storage. Called after every frame but the deltas (a reply is
 * saved once it ends), synchronously: a reload right after a reply must find it.
 */
function persistGuestChats() {
  const identity = getState().identity;
  if (!identity?.startsWith("guest:")) return;
  const { conversations } = getState().chat;
  const saved = Object.entries(conversations)
    .filter(([key, c]) => !isPendingKey(key) && c.chat)
    .sort(([, a], [, b]) => b.chat!.updatedAt - a.chat!.updatedAt)
    .slice(0, GUEST_CHATS_KEPT)
    .map(([key, c]) => [key, { chat: c.chat, messages: c.messages.filter((m) => !m.sendError).map(({ attachments: _a, ...m }) => m) }]);
  writeItem("session", GUEST_CHATS_PREFIX + identity.slice("guest:".length), JSON.stringify(Object.fromEntries(saved)));
}

function restoreGuestChats(guestId: string) {
  const raw = readItem("session", GUEST_CHATS_PREFIX + guestId);
  if (!raw) return;
  try {
    const parsed = JSON.parse(raw) as Record<string, Pick<Conversation, "chat" | "messages">>;
    const conversations: Record<string, Conversation> = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (!value?.chat || !Array.isArray(value.messages)) continue;
      // A reply that was streaming when the page went away is caught up by join (or ended).
      conversations[key] = { chat: value.chat, messages: value.messages, load: "ready", streaming: null, gap: false, projectId: null };
    }
    dispatch({ type: "restore", conversations });
  } catch {
    // A damaged copy is simply not restored.
  }
}

// ---- the connection ----------------------------------------------------------------------------

function onStatus(status: ConnectionStatus) {
  setState({ connection: status });
  const shown = statusToast(status);
  if (shown) toast({ title: shown.title, description: shown.description, variant: shown.variant, durationMs: shown.durationMs });
  // The server refused or revoked this user's credential: after the toast, the session ends here
  // too, and the access guard takes the user to sign in, back to this page after (the draft is kept).
  if (status.state === "failed" && status.reason === "auth" && getState().identity?.startsWith("user:")) authStore.getState().sessionEnded();
  if (status.state === "open" && status.reconnected) {
    // Titles or new chats may have changed while the socket was down (a user's or a guest's list).
    void loadList({ quiet: true });
  }
}

// ---- the owner's inbox: `inbox` frames on the same connection --------------------------------------

type InboxListener = (data: InboxFrameData) => void;
const inboxListeners = new Set<InboxListener>();

/**
 * Hears every `inbox` frame of this tab's connection (the owner's room, the chat's own socket:
 * one connection per tab). Returns the function that stops hearing.
 */
export function onInboxFrame(listener: InboxListener): () => void {
  inboxListeners.add(listener);
  return () => inboxListeners.delete(listener);
}

type TeamChangedListener = (data: TeamChangedData) => void;
const teamListeners = new Set<TeamChangedListener>();

/** Hears every `team-changed` frame (the user's membership or role changed: stores/workspace.ts re-reads). */
export function onTeamChangedFrame(listener: TeamChangedListener): () => void {
  teamListeners.add(listener);
  return () => teamListeners.delete(listener);
}

/** A server frame of the connection, as received: the chat's reducer, or the inbox's or the team's listeners. */
export function handleServerFrame(frame: ServerFrame) {
  if (frame.event === "inbox") {
    for (const listener of [...inboxListeners]) listener(frame.data);
    return;
  }
  if (frame.event === "team-changed") {
    for (const listener of [...teamListeners]) listener(frame.data);
    return;
  }
  onEvent(frame);
}

function onEvent(frame: ServerFrame) {
  dispatch({ type: "frame", frame });
  if (frame.event === "new-message" && frame.data.chat) upsertListedChat(frame.data.chat);
  if (frame.event === "message-error") {
    const shown = messageErrorToast(frame.data.error);
    toast({ title: shown.title, description: shown.description, variant: shown.variant, durationMs: shown.durationMs });
  }
  if (frame.event === "message-delta") {
    const conv = getState().chat.conversations[frame.data.chatId];
    if (conv?.gap) {
      // A delta was missed: a join brings the whole text so far (offset 0), then the rest.
      dispatch({ type: "gap-handled", chatId: frame.data.chatId });
      connection?.join(frame.data.chatId);
    }
  } else {
    persistGuestChats();
  }
}

/** The credential the socket authenticates with: the Firebase ID token first, else Tala's token. */
function credential(): string | null {
  return readLocalThenSession(storageKeys.firebaseToken) || readToken()?.token || null;
}

function applyAuth(auth: AuthState) {
  const identity =
    auth.status === "authenticated" && auth.user ? `user:${auth.user.id}` : auth.status === "guest" && auth.guestSessionId ? `guest:${auth.guestSessionId}` : null;
  const token = identity?.startsWith("user:") ? credential() : null;
  // The user object is part of the key: the spec rebuilds the connection whenever it changes.
  const key = identity ? `${identity}|${token ?? ""}|${auth.user ? JSON.stringify(auth.user) : ""}` : null;
  if (key === connectionKey) return;
  connectionKey = key;

  const previous = connection;
  const previousIdentity = getState().identity;
  connection = null;
  // Messages still waiting for the first socket go on the new connection when it is the same person's.
  const unsent = previous?.close() ?? [];

  const before = getState().identity;
  if (identity !== before) {
    // Someone else's (or nobody's) data: nothing of the previous session stays on screen.
    if (before !== null) {
      watched.clear();
      setState({ chat: initialChatState(), list: emptyList(), projects: null });
    }
    setState({ identity });
    if (identity?.startsWith("guest:")) restoreGuestChats(identity.slice("guest:".length));
  }
  if (!identity) {
    setState({ connection: { state: "idle" } });
    return;
  }
  setState({ connection: { state: "connecting" } });
  const next = createChatConnection({
    roomId: identity.startsWith("user:") ? userRoomId(auth.user!.id) : auth.guestSessionId!,
    ...(token ? { token } : { guestSessionId: auth.guestSessionId! }),
    onEvent: (frame) => {
      if (connection === next) handleServerFrame(frame);
    },
    onStatus: (status) => {
      if (connection === next) onStatus(status);
    },
  });
  connection = next;
  for (const chatId of watched) next.join(chatId);
  if (identity === previousIdentity) for (const frame of unsent) next.forward(frame);
}

/**
 * Starts following the auth state (idempotent): the chat screen calls it when it first shows, and
 * the signed-in layout for the owner's inbox (stores/inbox.ts).
 */
export function startChatRealtime() {
  if (started) return;
  started = true;
  applyAuth(authStore.getState());
  authStore.subscribe((auth) => applyAuth(auth));
}

/** Try again after the connection gave up. */
export function reconnectChat() {
  connection?.reconnect();
}

/**
 * Whether frames can be sent now: over the open socket, held for the first socket, or over HTTP
 * while it reconnects (realtime/connection.ts); not once the connection failed or closed.
 */
const canSend = (conn: ChatConnection | null): conn is ChatConnection =>
  conn !== null && (conn.status.state === "open" || conn.status.state === "connecting" || conn.status.state === "reconnecting");

function noConnection() {
  toast({ title: realtimeMessages.noActiveConnection, variant: "destructive", durationMs: toastTiming.realtimeShortMs });
}

// ---- sending -----------------------------------------------------------------------------------

export interface Outgoing {
  content: string;
  attachments: Attachment[];
}

/**
 * Sends a message in the conversation `key` (a chat id, or a new chat's pending key). Refused with
 * 'No active connection' when the connection failed (spec section 5); while it is still coming up
 * the message waits for it. Returns true when sent.
 */
export function sendChatMessage(key: string, outgoing: Outgoing): boolean {
  const conn = connection;
  if (!canSend(conn)) {
    noConnection();
    return false;
  }
  const state = getState().chat;
  const convKey = resolveKey(state, key);
  const conv = state.conversations[convKey];
  const chatId = isPendingKey(convKey) ? undefined : convKey;
  const projectId = chatId ? undefined : (conv?.projectId ?? null);
  const clientMessageId = newLocalId();
  const files = outgoing.attachments.map((a) => ({ name: a.name, text: a.text.slice(0, chatLimits.maxFileTextChars) }));
  const optimistic: UiMessage = {
    id: `local:${clientMessageId}`,
    chatId: chatId ?? convKey,
    role: "user",
    content: { type: "text", data: outgoing.content },
    files: files.map((f) => ({ name: f.name })),
    timestamp: Date.now(),
    status: "complete",
    error: null,
    clientMessageId,
    attachments: outgoing.attachments,
  };
  dispatch({ type: "sent", key: convKey, message: optimistic });
  const result = conn.sendMessage({ chatId, ...(projectId ? { projectId } : {}), content: outgoing.content, files, clientMessageId });
  if (!result.ok) {
    dispatch({ type: "frame", frame: { event: "message-error", data: { error: result.error, clientMessageId } } });
    noConnection();
    return false;
  }
  if (chatId) watch(chatId);
  return true;
}

/** Sends a refused message again (it is removed from the list first). */
export function retryChatMessage(key: string, message: UiMessage) {
  if (!canSend(connection)) return noConnection();
  if (message.clientMessageId) dispatch({ type: "discard", key, clientMessageId: message.clientMessageId });
  sendChatMessage(key, { content: message.content.data, attachments: message.attachments ?? [] });
}

/**
 * Regenerate the chat's last reply, or Retry it when it failed: the server writes it again in
 * place (regenerate frame), keeping the earlier text as a version; no question is added. The
 * question's attachments go along when this tab still has their text (only names are saved).
 */
export function regenerateReply(chatId: string) {
  const conn = connection;
  if (!canSend(conn)) return noConnection();
  const conv = getState().chat.conversations[chatId];
  const reply = lastReply(conv);
  if (!reply) return;
  const files = (lastSavedQuestion(conv)?.attachments ?? []).map((a) => ({ name: a.name, text: a.text.slice(0, chatLimits.maxFileTextChars) }));
  const clientMessageId = newLocalId();
  dispatch({ type: "regenerate-sent", chatId, clientMessageId });
  const result = conn.regenerate({ chatId, messageId: reply.id, clientMessageId, ...(files.length > 0 ? { files } : {}) });
  if (!result.ok) {
    dispatch({ type: "frame", frame: { event: "message-error", data: { error: result.error, chatId, clientMessageId } } });
    noConnection();
    return;
  }
  watch(chatId);
}

export function stopReply(chatId: string) {
  const result = connection?.stop(chatId);
  if (!result?.ok) noConnection();
}

export function chooseProject(key: string, projectId: string | null) {
  dispatch({ type: "project-chosen", key, projectId });
}

// ---- opening chats ----------------------------------------------------------------------------

function watch(chatId: string) {
  if (watched.has(chatId)) return;
  watched.add(chatId);
  connection?.join(chatId);
}

const loading = new Map<string, Promise<void>>();

/**
 * Shows a chat: its saved messages (GET /api/chats/{id}: a signed-in user's or a guest's room),
 * then join-{chatId}, so a reply in progress is replayed and followed.
 */
export function openChat(chatId: string): Promise<void> {
  const conv = getState().chat.conversations[chatId];
  if (conv && (conv.load === "ready" || conv.load === "missing")) {
    watch(chatId);
    return Promise.resolve();
  }
  const pending = loading.get(chatId);
  if (pending) return pending;
  dispatch({ type: "load-state", chatId, load: "loading" });
  const identity = getState().identity;
  const request = chatApi
    .getChat(chatId)
    .then(({ chat, messages }) => {
      if (getState().identity !== identity) return;
      dispatch({ type: "loaded", chat, messages });
      watch(chatId);
    })
    .catch((err: unknown) => {
      if (getState().identity !== identity) return;
      dispatch({ type: "load-state", chatId, load: err instanceof ApiError && err.status === 404 ? "missing" : "error" });
    })
    .finally(() => loading.delete(chatId));
  loading.set(chatId, request);
  return request;
}

/** Stops watching a chat the screen no longer shows (its reply, if any, goes on on the server). */
export function leaveChat(chatId: string) {
  if (!watched.delete(chatId)) return;
  connection?.leave(chatId);
}
