import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { chatSocketClose, realtimeMessages } from "../../../contract";
import { createChatConnection } from "./connection";
import { connectForTest, FakeSocket, latest, tick } from "./fake-socket";

const response = (status: number) => Promise.resolve(new Response(null, { status }));

function connect(over: Partial<Parameters<typeof createChatConnection>[0]> = {}) {
  const fetch = vi.fn((_url: string | URL | Request, _init?: RequestInit) => response(400));
  return { ...connectForTest({ fetch: fetch as unknown as typeof globalThis.fetch, ...over }), fetch };
}


describe("createChatConnection", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => vi.useRealTimers());

  it("connects to the room with the credential and passes on only frames that match the contract", async () => {
    const { connection, frames, statuses } = connect();
    await tick();
    const url = new URL(latest().url);
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe("wss://tala.test/parties/chat/user-u1");
    expect(url.searchParams.get("token")).toBe("tala_abc");
    latest().open();
    expect(statuses.at(-1)).toEqual({ state: "open", reconnected: false });
    latest().receive('{"event":"thinking","data":{"chatId":"c","messageId":"m"}}');
    latest().receive("not json");
    latest().receive('{"event":"thinking","data":{}}');
    latest().receive('{"event":"surprise","data":{}}');
    expect(frames).toEqual([{ event: "thinking", data: { chatId: "c", messageId: "m" } }]);
    connection.close();
  });

  it("sends frames with isGuest and userId, holds one sent before the socket is up, and refuses to send once closed", async () => {
    const { connection } = connect();
    const early = connection.sendMessage({ content: "early", files: [] });
    expect(early.ok).toBe(true);
    await tick();
    latest().open();
    expect(JSON.parse(latest().sent.at(-1)!)).toMatchObject({ event: "send-message", data: { content: "early" } });
    const sent = connection.sendMessage({ content: "hi", files: [] });
    expect(sent.ok).toBe(true);
    const frame = JSON.parse(latest().sent.at(-1)!);
    expect(frame).toEqual({ event: "send-message", data: { content: "hi", files: [], clientMessageId: sent.ok ? sent.clientMessageId : "", isGuest: false, userId: "u1" } });
    connection.stop("c1");
    expect(JSON.parse(latest().sent.at(-1)!)).toEqual({ event: "stop", data: { chatId: "c1" } });
    connection.close();
    expect(connection.join("c1")).toEqual({ ok: false, error: realtimeMessages.noActiveConnection });
  });

  it("marks guest frames and uses the guest id", async () => {
    const { connection } = connect({ roomId: "guest-1700000000000-abcd1234efgh5678", token: undefined, guestSessionId: "guest-1700000000000-abcd1234efgh5678" });
    await tick();
    expect(new URL(latest().url).searchParams.get("guestSessionId")).toBe("guest-1700000000000-abcd1234efgh5678");
    latest().open();
    connection.sendMessage({ content: "hi", files: [] });
    expect(JSON.parse(latest().sent.at(-1)!).data).toMatchObject({ isGuest: true });
    expect(JSON.parse(latest().sent.at(-1)!).data.userId).toBeUndefined();
    connection.close();
  });

  it("reconnects after a drop, says so, and re-joins the watched chats", async () => {
    const { connection, statuses } = connect();
    await tick();
    latest().open();
    connection.join("chat-1");
    latest().drop();
    expect(statuses.at(-1)).toEqual({ state: "reconnecting", attempt: 1, reason: "network", lost: true });
    await tick(999);
    expect(FakeSocket.all).toHaveLength(1);
    await tick(1);
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();
    expect(statuses.at(-1)).toEqual({ state: "open", reconnected: true });
    expect(latest().sent.map((s) => JSON.parse(s))).toContainEqual({ event: "join-chat-1", data: {} });
    connection.close();
  });

  it("gives up at once when the server refuses the credential (probe answers 401)", async () => {
    const { connection, statuses, fetch } = connect();
    fetch.mockImplementation(() => response(401));
    await tick();
    latest().drop();
    await tick();
    expect(String(fetch.mock.calls[0]![0])).toBe("https://tala.test/parties/chat/user-u1?token=tala_abc");
    expect(statuses.at(-1)).toEqual({ state: "failed", reason: "auth" });
    await tick(20_000);
    expect(FakeSocket.all).toHaveLength(1);
    connection.close();
  });

  it("treats a revocation close as signed out: failed (auth) at once, no reconnection", async () => {
    const { connection, statuses, fetch } = connect();
    await tick();
    latest().open();
    latest().drop(chatSocketClose.signedOut.code, chatSocketClose.signedOut.reason);
    expect(statuses.at(-1)).toEqual({ state: "failed", reason: "auth" });
    await tick(30_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(fetch).not.toHaveBeenCalled();
    connection.close();
  });

  it("after its password change, waits quietly for the new token, and fails as signed out if the old one is retried", async () => {
    const { connection, statuses, fetch } = connect();
    fetch.mockImplementation(() => response(401));
    await tick();
    latest().open();
    latest().drop(chatSocketClose.credentialsReplaced.code, chatSocketClose.credentialsReplaced.reason);
    expect(statuses.at(-1)).toEqual({ state: "connecting" });
    expect(statuses.some((s) => s.state === "reconnecting" || s.state === "failed")).toBe(false);
    // Nobody replaced the connection: the retry with the revoked token is refused.
    await tick(1000);
    expect(FakeSocket.all).toHaveLength(2);
    latest().drop();
    await tick();
    expect(statuses.at(-1)).toEqual({ state: "failed", reason: "auth" });
    connection.close();
  });

  it("tries 5 times, 1 s growing to 5 s apart, then reports 'Unable to reconnect'", async () => {
    const { connection, statuses } = connect();
    await tick();
    const startedAt: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const before = FakeSocket.all.length;
      latest().drop();
      const t0 = Date.now();
      while (FakeSocket.all.length === before) await tick(1);
      startedAt.push(Date.now() - t0);
      expect(statuses.at(-1)).toMatchObject({ state: "reconnecting", attempt });
    }
    expect(startedAt).toEqual([1000, 1500, 2250, 3375, 5000]);
    latest().drop();
    expect(statuses.at(-1)).toEqual({ state: "failed", reason: "exhausted" });
    await tick(30_000);
    expect(FakeSocket.all).toHaveLength(6);
    connection.close();
  });

  describe("over HTTP when WebSockets cannot get through", () => {
    /** A server that answers HTTP (probe 400, frames 204, POSTs streamed) while sockets fail. */
    function httpServer(replies: Record<string, string> = {}) {
      const posts: { body: unknown; headers: Record<string, string> }[] = [];
      const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
        const path = new URL(String(url)).pathname;
        if (path === "/api/chat/frames" && init?.method === "POST") {
          const body = JSON.parse(String(init.body)) as { event: string };
          posts.push({ body, headers: init.headers as Record<string, string> });
          return new Response(replies[body.event] ?? "", { headers: { "content-type": "text/event-stream" } });
        }
        return new Response(null, { status: path === "/api/chat/frames" ? 204 : 400 });
      });
      return { fetch, posts };
    }
    const sse = (...frames: unknown[]) => frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join("");

    it("switches to HTTP when the socket never opens but the server answers, sends and streams there", async () => {
      const server = httpServer({ "send-message": sse({ event: "thinking", data: { chatId: "c", messageId: "m" } }, { event: "message-delta", data: { chatId: "c", messageId: "m", delta: "Hi", offset: 0 } }) });
      const { connection, frames, statuses } = connect({ fetch: server.fetch as unknown as typeof globalThis.fetch });
      connection.join("chat-1");
      await tick();
      latest().drop();
      await tick();
      expect(statuses.at(-1)).toEqual({ state: "open", reconnected: false, transport: "http" });
      expect(server.posts.map((p) => p.body)).toEqual([{ event: "join-chat-1", data: {} }]);
      expect(server.posts[0]!.headers).toMatchObject({ authorization: "Token tala_abc" });

      expect(connection.sendMessage({ chatId: "c", content: "hi", files: [] }).ok).toBe(true);
      await tick();
      expect(server.posts.at(-1)!.body).toMatchObject({ event: "send-message", data: { content: "hi", userId: "u1" } });
      expect(frames.map((f) => f.event)).toEqual(["thinking", "message-delta"]);
      // The reply's stream ended before its last frame: its chat is joined again to catch up.
      await tick(1000);
      expect(server.posts.at(-1)!.body).toEqual({ event: "join-c", data: {} });
      connection.close();
    });

    it("a message held for the first socket goes over HTTP when that socket fails", async () => {
      const server = httpServer();
      const { connection } = connect({ fetch: server.fetch as unknown as typeof globalThis.fetch, token: undefined, roomId: "guest-1700000000000-abcd1234efgh5678", guestSessionId: "guest-1700000000000-abcd1234efgh5678" });
      connection.sendMessage({ content: "first", files: [] });
      await tick();
      latest().drop();
      await tick();
      expect(server.posts.map((p) => p.body)).toMatchObject([{ event: "send-message", data: { content: "first", isGuest: true } }]);
      expect(server.posts[0]!.headers).toMatchObject({ "X-Guest-Session-Id": "guest-1700000000000-abcd1234efgh5678" });
      connection.close();
    });

    it("goes back to the socket when it opens again, without a 'Reconnected'", async () => {
      const server = httpServer();
      const { connection, statuses } = connect({ fetch: server.fetch as unknown as typeof globalThis.fetch });
      await tick();
      latest().drop();
      await tick();
      expect(statuses.at(-1)).toMatchObject({ transport: "http" });
      // The socket's own attempts run out; it is tried again a while later, and this time it opens.
      for (let attempt = 0; attempt < 5; attempt++) {
        const before = FakeSocket.all.length;
        while (FakeSocket.all.length === before) await tick(500);
        latest().drop();
      }
      const before = FakeSocket.all.length;
      await tick(30_000);
      for (let i = 0; i < 10 && FakeSocket.all.length === before; i++) await tick(10);
      expect(FakeSocket.all.length).toBe(before + 1);
      expect(statuses.at(-1)).toMatchObject({ transport: "http" });
      latest().open();
      expect(statuses.at(-1)).toEqual({ state: "open", reconnected: false });
      connection.sendMessage({ content: "socket again", files: [] });
      expect(JSON.parse(latest().sent.at(-1)!)).toMatchObject({ data: { content: "socket again" } });
      connection.close();
    });

    it("treats a socket that keeps dropping as blocked", async () => {
      const server = httpServer();
      const { connection, statuses } = connect({ fetch: server.fetch as unknown as typeof globalThis.fetch });
      await tick();
      for (let i = 0; i < 3; i++) {
        const before = FakeSocket.all.length;
        latest().open();
        latest().drop();
        while (FakeSocket.all.length === before) await tick(100);
      }
      await tick();
      expect(statuses.at(-1)).toEqual({ state: "open", reconnected: true, transport: "http" });
      connection.close();
    });

    it("a refused frame over HTTP fails its message with the server's words; a 401 signs out", async () => {
      const { connection, frames, statuses, fetch } = connect();
      fetch.mockImplementation(async (url: string | URL | Request, init?: RequestInit) => {
        const path = new URL(String(url)).pathname;
        if (path === "/api/chat/frames" && init?.method === "POST") return new Response(JSON.stringify({ error: "Slow down" }), { status: 429 });
        return new Response(null, { status: path === "/api/chat/frames" ? 204 : 400 });
      });
      await tick();
      latest().drop();
      await tick();
      const sent = connection.sendMessage({ content: "hi", files: [], clientMessageId: "m1" });
      expect(sent.ok).toBe(true);
      await tick();
      expect(frames.at(-1)).toEqual({ event: "message-error", data: { error: "Slow down", clientMessageId: "m1" } });
      fetch.mockImplementation(async () => new Response(JSON.stringify({ error: "expired" }), { status: 401 }));
      connection.sendMessage({ content: "again", files: [] });
      await tick();
      expect(statuses.at(-1)).toEqual({ state: "failed", reason: "auth" });
      connection.close();
    });
  });
});
