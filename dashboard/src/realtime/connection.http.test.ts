/**
 * The HTTP fallback (connection.ts) with streams the test writes to: frames that could reach the
 * UI twice (two streams, a stream and the socket), a held message when the connection is rebuilt,
 * a stream cut before its first frame.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChatMessage } from "../../../contract";
import { chatReducer, initialChatState, streamingReply } from "../components/chat/chat-reducer";
import { connectForTest, FakeSocket, latest, tick } from "./fake-socket";

const sse = (f: unknown) => new TextEncoder().encode(`data: ${JSON.stringify(f)}\n\n`);

/**
 * A server that answers HTTP while sockets fail; each POST's answer is a stream the test writes
 * to (`streams[i].push(frame)`, `.end()`), as the room's sinks do.
 */
function httpServer() {
  const posts: unknown[] = [];
  const streams: { push: (f: unknown) => void; end: () => void; cut: () => void }[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname;
    if (path === "/api/chat/frames" && init?.method === "POST") {
      posts.push(JSON.parse(String(init.body)));
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      streams.push({ push: (f) => controller.enqueue(sse(f)), end: () => controller.close(), cut: () => controller.error(new TypeError("network error")) });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    return new Response(null, { status: path === "/api/chat/frames" ? 204 : 400 });
  });
  return { fetch, posts, streams };
}

const connect = (fetch: unknown) => connectForTest({ fetch: fetch as typeof globalThis.fetch });

/** A connection whose first socket fails while the server answers HTTP: it is over HTTP once this resolves. */
async function connectOverHttp(server: ReturnType<typeof httpServer>, joined: string[] = []) {
  const connected = connect(server.fetch);
  for (const chatId of joined) connected.connection.join(chatId);
  await tick();
  latest().drop();
  await tick();
  return connected;
}

const reply = (over: Partial<ChatMessage>): ChatMessage => ({
  id: "rA",
  chatId: "A",
  role: "assistant",
  content: { type: "text", data: "" },
  files: [],
  timestamp: 2,
  status: "streaming",
  error: null,
  ...over,
});

describe("the HTTP fallback, frame by frame", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => vi.useRealTimers());

  it("two frame streams open at once (two chats replying over HTTP) do not hand the UI every broadcast frame twice", async () => {
    // Should a stream carry another chat's frame (an older server), only the stream of that chat hands it on.
    const server = httpServer();
    const { connection, frames } = await connectOverHttp(server);
    connection.sendMessage({ chatId: "A", content: "in A", files: [] });
    connection.sendMessage({ chatId: "B", content: "in B", files: [] });
    await tick();
    expect(server.streams).toHaveLength(2);
    const [a, b] = server.streams as [(typeof server.streams)[0], (typeof server.streams)[0]];
    const failed = { event: "message-error", data: { error: "The model is unavailable", chatId: "A", messageId: "rA" } } as const;
    // Both sinks are open when A's reply fails: both carry the broadcast.
    a.push(failed);
    b.push(failed);
    await tick();
    // One failure, one 'Message Error' toast (chat-realtime.ts onEvent toasts every message-error).
    expect(frames.filter((f) => f.event === "message-error")).toHaveLength(1);
    connection.close();
  });

  it("a copy of a delta that arrives on the other stream after the reply ended does not leave the reply 'streaming' and cut", async () => {
    const server = httpServer();
    const { connection, frames } = await connectOverHttp(server);
    connection.sendMessage({ chatId: "A", content: "in A", files: [] });
    connection.sendMessage({ chatId: "B", content: "in B", files: [] });
    await tick();
    const [a, b] = server.streams as [(typeof server.streams)[0], (typeof server.streams)[0]];
    // A's reply, on A's stream, to its end.
    a.push({ event: "thinking", data: { chatId: "A", messageId: "rA" } });
    a.push({ event: "message-delta", data: { chatId: "A", messageId: "rA", delta: "Hel", offset: 0 } });
    a.push({ event: "message-delta", data: { chatId: "A", messageId: "rA", delta: "lo", offset: 3 } });
    a.push({ event: "new-message", data: { message: reply({ content: { type: "text", data: "Hello" }, status: "complete" }) } });
    a.end();
    await tick();
    // B's stream (refused at once: B has a reply running) carried A's first delta, broadcast while
    // it was open; its bytes come in later than A's stream (another connection, a proxy's buffer).
    b.push({ event: "message-delta", data: { chatId: "A", messageId: "rA", delta: "Hel", offset: 0 } });
    b.push({ event: "message-error", data: { error: "A reply is already being written", chatId: "B", clientMessageId: "x" } });
    b.end();
    await tick();

    const state = frames.reduce((s, frame) => chatReducer(s, { type: "frame", frame }), initialChatState());
    const conv = state.conversations.A!;
    expect(conv.messages.find((m) => m.id === "rA")).toMatchObject({ status: "complete", content: { data: "Hello" } });
    // Not stuck busy (Stop button, no Send in this chat) until a reload.
    expect(streamingReply(conv)).toBeNull();
    connection.close();
  });

  it("going back to the socket does not leave the HTTP stream of a running reply feeding the UI beside the socket", async () => {
    // Once the socket is back it carries every frame of the room: the HTTP streams go quiet.
    const server = httpServer();
    const { connection, frames } = await connectOverHttp(server, ["A"]);
    connection.sendMessage({ chatId: "A", content: "in A", files: [] });
    await tick();
    const sending = server.streams.at(-1)!;
    sending.push({ event: "thinking", data: { chatId: "A", messageId: "rA" } });
    // The socket is tried again and opens.
    for (let i = 0; i < 200 && latest().readyState !== 0; i++) await tick(500);
    latest().open();
    latest().receive(JSON.stringify({ event: "message-delta", data: { chatId: "A", messageId: "rA", delta: "Hel", offset: 0 } }));
    sending.push({ event: "message-delta", data: { chatId: "A", messageId: "rA", delta: "Hel", offset: 0 } });
    await tick();
    expect(frames.filter((f) => f.event === "message-delta")).toHaveLength(1);
    connection.close();
  });

  it("a message held for the first socket is not dropped silently when the connection is closed (an auth change rebuilds it)", async () => {
    // The UI already shows the message as sent: it must leave, fail, or go on the next connection.
    const server = httpServer();
    const { connection, frames } = connect(server.fetch);
    const sent = connection.sendMessage({ content: "typed quickly", files: [] });
    expect(sent.ok).toBe(true);
    await tick(100);
    const unsent = connection.close();
    await tick(5000);
    const refused = frames.some((f) => f.event === "message-error" && sent.ok && f.data.clientMessageId === sent.clientMessageId);
    const handedBack = unsent.some((f) => f.event === "send-message" && "clientMessageId" in f.data && sent.ok && f.data.clientMessageId === sent.clientMessageId);
    // It left (over HTTP), the caller was told it did not, or it is handed back for the next connection.
    expect(server.posts.length > 0 || refused || handedBack).toBe(true);
  });

  it("a send whose stream is cut before its first frame is caught up on (or failed), not left waiting for good", async () => {
    // The turn may well be running on the server: its chat is joined again, as a socket's reconnect would.
    const server = httpServer();
    const { connection, frames } = await connectOverHttp(server, ["A"]);
    const sent = connection.sendMessage({ chatId: "A", content: "in A", files: [] });
    await tick();
    const before = server.posts.length;
    server.streams.at(-1)!.cut();
    await tick(5000);
    const rejoined = server.posts.slice(before).some((p) => (p as { event: string }).event === "join-A");
    const refused = frames.some((f) => f.event === "message-error" && sent.ok && f.data.clientMessageId === sent.clientMessageId);
    expect(rejoined || refused).toBe(true);
    connection.close();
  });

  it("a join over HTTP hands on its chat's frames (the chat is named in the frame's event), and is not repeated when it ends quietly", async () => {
    const server = httpServer();
    const { connection, frames } = await connectOverHttp(server, ["A"]);
    const joining = server.streams.at(-1)!;
    joining.push({ event: "thinking", data: { chatId: "A", messageId: "rA" } });
    joining.push({ event: "message-delta", data: { chatId: "A", messageId: "rA", delta: "Hel", offset: 0 } });
    joining.push({ event: "new-message", data: { message: reply({ content: { type: "text", data: "Hello" }, status: "complete" }) } });
    joining.end();
    await tick();
    expect(frames.map((f) => f.event)).toEqual(["thinking", "message-delta", "new-message"]);
    // A join of a chat with nothing running ends with no frame: it is not sent again and again.
    connection.join("B");
    await tick();
    server.streams.at(-1)!.end();
    const posts = server.posts.length;
    await tick(5000);
    expect(server.posts.length).toBe(posts);
    connection.close();
  });
});
