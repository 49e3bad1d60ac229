import { exports } from "cloudflare:workers";
import {
  chatRoomPath,
  clientFrames,
  parseServerFrame,
  userRoomId,
  type SendMessageData,
  type ServerFrame,
  type ServerEvent,
} from "../../contract";
import { getUserRoom } from "../../worker/durable-objects/stubs";
import { RoomStore } from "../../worker/chat/room-store";
import { randomIp, registerUser, tableCounts } from "./helpers";

/**
 * A test's end of a chat socket: every server frame parsed with the contract (a frame that does
 * not parse fails the test), kept in order, waited on by predicate.
 */
type DataOf = { [F in ServerFrame as F["event"]]: F["data"] };

export class TestSocket {
  readonly frames: ServerFrame[] = [];
  readonly invalid: string[] = [];
  closed = false;
  /** The close frame the server sent, once the socket closed. */
  closeEvent: { code: number; reason: string } | null = null;
  private closeWaiters: (() => void)[] = [];
  private waiters: { test: (f: ServerFrame) => boolean; resolve: (f: ServerFrame) => void }[] = [];

  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (event) => {
      const frame = parseServerFrame(event.data);
      if (!frame) {
        this.invalid.push(String(event.data));
        return;
      }
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
    ws.addEventListener("close", (event) => {
      this.closed = true;
      this.closeEvent = { code: event.code, reason: event.reason };
      for (const wake of this.closeWaiters.splice(0)) wake();
    });
  }

  /** The server's close code and reason, waiting for it at most `timeoutMs`. */
  waitClosed(timeoutMs = 8000): Promise<{ code: number; reason: string }> {
    if (this.closeEvent) return Promise.resolve(this.closeEvent);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`socket still open after ${timeoutMs} ms`)), timeoutMs);
      this.closeWaiters.push(() => {
        clearTimeout(timer);
        resolve(this.closeEvent!);
      });
    });
  }

  send(frame: unknown) {
    this.ws.send(JSON.stringify(frame));
  }

  sendMessage(data: Omit<SendMessageData, "clientMessageId" | "isGuest"> & Partial<Pick<SendMessageData, "clientMessageId" | "isGuest">>) {
    const clientMessageId = data.clientMessageId ?? crypto.randomUUID();
    this.send(clientFrames.sendMessage({ isGuest: false, ...data, clientMessageId }));
    return clientMessageId;
  }

  /** The first frame (already received or still to come) of `event` that matches `test`. */
  next<E extends ServerEvent>(event: E, test: (data: DataOf[E]) => boolean = () => true, timeoutMs = 8000): Promise<DataOf[E]> {
    const matches = (f: ServerFrame) => f.event === event && test(f.data as DataOf[E]);
    const seen = this.frames.find(matches);
    if (seen) return new Promise<DataOf[E]>((resolve) => resolve(seen.data as DataOf[E]));
    return new Promise<DataOf[E]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event} frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.map((f) => f.event))}`)), timeoutMs);
      this.waiters.push({
        test: (f) => matches(f),
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f.data as DataOf[E]);
        },
      });
    });
  }

  all<E extends ServerEvent>(event: E): DataOf[E][] {
    return this.frames.filter((f) => f.event === event).map((f) => f.data as DataOf[E]);
  }

  close() {
    try {
      this.ws.close(1000, "done");
    } catch {
      // already closed
    }
  }
}

/** The raw upgrade response for a chat room path + query. */
export function connectRaw(roomId: string, query: Record<string, string>, init: { ip?: string; upgrade?: boolean } = {}) {
  const url = new URL(`http://tala.test${chatRoomPath(roomId)}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const headers = new Headers({ "cf-connecting-ip": init.ip ?? randomIp() });
  if (init.upgrade !== false) headers.set("upgrade", "websocket");
  return exports.default.fetch(new Request(url, { headers }));
}

export async function openSocket(roomId: string, query: Record<string, string>, ip?: string): Promise<TestSocket> {
  const res = await connectRaw(roomId, query, { ip });
  if (res.status !== 101 || !res.webSocket) throw new Error(`socket refused: ${res.status} ${await res.text()}`);
  return new TestSocket(res.webSocket);
}

/** A fresh registered user and a function opening sockets to their room. */
export async function chatUser() {
  const account = await registerUser();
  const open = () => openSocket(userRoomId(account.user.id), { token: account.token });
  return { ...account, roomId: userRoomId(account.user.id), open };
}

export const newGuestId = () => `guest-${Date.now()}-${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;

/** A fresh guest session and a function opening sockets to its room (one IP unless given). */
export function chatGuest(ip = randomIp()) {
  const guestId = newGuestId();
  return { guestId, ip, open: () => openSocket(guestId, { guestSessionId: guestId }, ip) };
}

/** The mock model's reply to `text` (tests/mock-model), as streamed. */
export const mockReply = (text: string) =>
  `Mock reply to: ${text.replace(/\[\[[^\]]*\]\]/g, "").trim() || "(empty)"}. This answer is streamed token by token.`;

/** The mock model's reply to `text` with the [[tokens:n]] cue: its words, cycled. */
export const mockTokens = (text: string, n: number) => {
  const words = mockReply(text).split(/(?<= )/);
  return Array.from({ length: n }, (_, i) => words[i % words.length]).join("");
};

/** Writes a chat and its messages straight into the user's own room (REST tests: no model involved). */
/** How many chats, messages and projects a room's SQLite holds (no table yet: none). */
export const roomCounts = (storage: DurableObjectStorage) => tableCounts(storage, { chats: "chats", messages: "messages", projects: "projects" });

/** What a signed-in user's room holds, read from its SQLite (account deletion leaves nothing). */
export async function userRoomFootprint(userId: string) {
  const { env, runInDurableObject } = await import("cloudflare:test");
  return runInDurableObject(getUserRoom(env, userId), (_room, state) => roomCounts(state.storage));
}

export async function seedChat(
  userId: string,
  init: { title?: string; projectId?: string | null; updatedAt?: number; messages?: string[] } = {},
) {
  const { env, runInDurableObject } = await import("cloudflare:test");
  const id = crypto.randomUUID();
  const at = init.updatedAt ?? Date.now();
  await runInDurableObject(getUserRoom(env, userId), (_room, state) => {
    const store = new RoomStore(state.storage);
    store.sql.exec(
      "INSERT INTO chats (id, title, project_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      id,
      init.title ?? "",
      init.projectId ?? null,
      at,
      at,
    );
    for (const [i, text] of (init.messages ?? []).entries()) {
      store.insertMessage({
        id: crypto.randomUUID(),
        chatId: id,
        role: i % 2 ? "assistant" : "user",
        content: { type: "text", data: text },
        files: [],
        timestamp: at + i,
        status: "complete",
        error: null,
      });
    }
  });
  return id;
}
