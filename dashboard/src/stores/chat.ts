/**
 * The chat screen's state: the conversations (a pure reducer over realtime frames and the screen's
 * actions, components/chat/chat-reducer.ts), the connection's status, the history list (GET
 * /api/chats: a guest's too, their room's chats) and, for signed-in users, project names. The realtime side lives in chat-realtime.ts.
 * The state lives here, not in the page, so moving between /app/new-chat and /app/history (or
 * leaving and coming back) keeps a reply streaming on screen.
 */
import { create } from "zustand";
import { chatUi, type Chat, type Project } from "../../../contract";
import { chatReducer, initialChatState, type ChatAction, type ChatState } from "../components/chat/chat-reducer";
import { errorMessage } from "../lib/api";
import { chatApi } from "../lib/chat-api";
import type { ConnectionStatus } from "../realtime";
import { toast } from "./toast";

export type ListStatus = "idle" | "loading" | "ready" | "error";

export interface ChatList {
  status: ListStatus;
  chats: Chat[];
  search: string;
  page: number;
  totalPages: number;
  loadingMore: boolean;
}

export type ConnectionView = ConnectionStatus | { state: "idle" };

interface ChatStoreState {
  chat: ChatState;
  connection: ConnectionView;
  /** Who the data belongs to: `user:<id>` or `guest:<id>`, null when nobody. */
  identity: string | null;
  list: ChatList;
  /** The user's projects (names for the chats' project badges); null until loaded. */
  projects: Project[] | null;
}

export const emptyList = (): ChatList => ({ status: "idle", chats: [], search: "", page: 0, totalPages: 0, loadingMore: false });

export const useChatStore = create<ChatStoreState>()(() => ({
  chat: initialChatState(),
  connection: { state: "idle" },
  identity: null,
  list: emptyList(),
  projects: null,
}));

export const getState = () => useChatStore.getState();
export const setState = useChatStore.setState;

/** Applies an action to the conversations (chat-reducer.ts). */
export function dispatch(action: ChatAction) {
  setState((s) => ({ chat: chatReducer(s.chat, action) }));
}

/** A random id for optimistic messages and new-chat drafts. */
export function newLocalId(): string {
  const c = globalThis.crypto;
  // randomUUID exists only in secure contexts (https, localhost).
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A signed-in user's data is shown (not a guest's, not nobody's). */
export const isUser = () => getState().identity?.startsWith("user:") ?? false;

// ---- the history list (signed-in users and guests) ---------------------------------------------

const LIST_PAGE_SIZE = 30;
let listSeq = 0;

function byNewest(a: Chat, b: Chat) {
  return b.updatedAt - a.updatedAt;
}

/**
 * Chats the socket told about while the list was loading: the list request may have left before
 * they existed, so they are merged into its answer rather than dropped.
 */
const arrivedWhileLoading = new Map<string, Chat>();

function mergeArrived(chats: Chat[], search: string): Chat[] {
  if (!arrivedWhileLoading.size) return chats;
  const arrived = [...arrivedWhileLoading.values()];
  arrivedWhileLoading.clear();
  if (search) return chats.map((c) => arrived.find((a) => a.id === c.id) ?? c);
  return [...arrived, ...chats.filter((c) => !arrived.some((a) => a.id === c.id))].sort(byNewest);
}

/** A chat the socket told about: moved to its place in the list (kept in place while searching). */
export function upsertListedChat(chat: Chat) {
  setState((s) => {
    const { list } = s;
    if (list.status !== "ready") {
      if (list.status === "loading") arrivedWhileLoading.set(chat.id, chat);
      return {};
    }
    const known = list.chats.some((c) => c.id === chat.id);
    if (list.search) {
      return known ? { list: { ...list, chats: list.chats.map((c) => (c.id === chat.id ? chat : c)) } } : {};
    }
    const chats = [chat, ...list.chats.filter((c) => c.id !== chat.id)].sort(byNewest);
    return { list: { ...list, chats } };
  });
}

/** Loads the first page of the list (for `search`, or the current search); `quiet` keeps what shows. A guest's list is their room's chats. */
export async function loadList({ search, quiet = false }: { search?: string; quiet?: boolean } = {}) {
  if (!getState().identity) return;
  const seq = ++listSeq;
  const term = search ?? getState().list.search;
  setState((s) => ({ list: { ...s.list, search: term, status: quiet && s.list.status === "ready" ? "ready" : "loading" } }));
  try {
    const res = await chatApi.listChats({ search: term || undefined, page: 1, limit: LIST_PAGE_SIZE });
    if (seq !== listSeq) return;
    setState((s) => ({ list: { ...s.list, status: "ready", chats: mergeArrived(res.chats, term), page: res.currentPage, totalPages: res.totalPages } }));
  } catch {
    if (seq !== listSeq) return;
    setState((s) => ({ list: { ...s.list, status: quiet && s.list.status === "ready" ? "ready" : "error" } }));
  }
}

export async function loadMoreChats() {
  const { list } = getState();
  if (list.loadingMore || list.page >= list.totalPages) return;
  const seq = listSeq;
  setState((s) => ({ list: { ...s.list, loadingMore: true } }));
  try {
    const res = await chatApi.listChats({ search: list.search || undefined, page: list.page + 1, limit: LIST_PAGE_SIZE });
    if (seq !== listSeq) return;
    setState((s) => {
      const seen = new Set(s.list.chats.map((c) => c.id));
      return {
        list: { ...s.list, chats: [...s.list.chats, ...res.chats.filter((c) => !seen.has(c.id))], page: res.currentPage, totalPages: res.totalPages, loadingMore: false },
      };
    });
  } catch (err) {
    setState((s) => ({ list: { ...s.list, loadingMore: false } }));
    toast({ variant: "destructive", title: chatUi.listLoadFailed, description: errorMessage(err, chatUi.retry) });
  }
}

export async function loadProjects() {
  if (!isUser() || getState().projects) return;
  try {
    const projects = await chatApi.listProjects();
    setState({ projects });
  } catch {
    // Only names for badges: the chats still show without them.
  }
}

/** Renames a chat. Throws the API's error (the dialog shows it). */
export async function renameChat(chatId: string, title: string) {
  const chat = await chatApi.updateChat(chatId, { title });
  dispatch({ type: "chat-updated", chat });
  setState((s) => ({ list: { ...s.list, chats: s.list.chats.map((c) => (c.id === chat.id ? chat : c)) } }));
  toast({ description: chatUi.chatRenamed, variant: "success" });
}

/** Deletes a chat and its messages. Throws the API's error. */
export async function deleteChat(chatId: string) {
  await chatApi.deleteChat(chatId);
  dispatch({ type: "chat-removed", chatId });
  setState((s) => ({ list: { ...s.list, chats: s.list.chats.filter((c) => c.id !== chatId) } }));
  toast({ description: chatUi.chatDeleted, variant: "success" });
}

/** Projects changed elsewhere (created, renamed, deleted): names and the list are read again when shown. */
export function invalidateProjects() {
  setState((s) => ({ projects: null, list: s.list.status === "ready" ? { ...s.list, status: "idle" } : s.list }));
}
