import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  chatDetailResponse,
  chatFramesPath,
  chatGuestSessionHeader,
  chatMessages,
  clientFrames,
  guestQuota,
  parseServerFrame,
  realtime,
  requestBodyLimits,
  serverMessages,
  userChatLimits,
  type ServerFrame,
} from "../../contract";
import { getChatRoom } from "../../worker/durable-objects/stubs";
import { call, expectError, json } from "./helpers";
import { chatGuest, chatUser, mockReply } from "./chat-helpers";

/** A POST of one frame over the HTTP transport: its answer's frames, read as they come. */
class FrameStream {
  readonly frames: ServerFrame[] = [];
  readonly invalid: string[] = [];
  readonly ended: Promise<void>;
  private waiters: (() => void)[] = [];

  constructor(readonly res: Response) {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    this.ended = this.read();
  }

  private async read() {
    const reader = this.res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.split("\n").find((line) => line.startsWith("data: "));
        if (!data) continue;
        const frame = parseServerFrame(data.slice("data: ".length));
        if (frame) this.frames.push(frame);
        else this.invalid.push(data);
        for (const wake of this.waiters.splice(0)) wake();
      }
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The client hangs up. */
  cancel() {
    void this.res.body?.cancel().catch(() => {});
  }

  /** Waits until a frame matches (or fails when the stream ends without one). */
  async until(test: (f: ServerFrame) => boolean, timeoutMs = 8000): Promise<ServerFrame> {
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void this.ended.then(() => (ended = true));
    for (;;) {
      const found = this.frames.find(test);
      if (found) return found;
      if (ended || Date.now() > deadline) throw new Error(`no such frame; got ${JSON.stringify(this.frames.map((f) => f.event))}`);
      await Promise.race([new Promise<void>((r) => this.waiters.push(r)), new Promise((r) => setTimeout(r, 100))]);
    }
  }
}

const postFrame = (frame: unknown, auth: { token?: string; guestId?: string; ip?: string }) =>
  call(chatFramesPath, {
    method: "POST",
    body: JSON.stringify(frame),
    headers: { "content-type": "application/json", ...(auth.guestId ? { [chatGuestSessionHeader]: auth.guestId } : {}) },
    token: auth.token,
    ip: auth.ip,
  });

const finalReply = (f: ServerFrame) => f.event === "new-message" && f.data.message.role === "assistant" && f.data.message.status !== "streaming";

describe("chat frames over HTTP (a network that blocks WebSockets)", () => {
  it("a signed-in user's message streams its reply back as server-sent events, and the user's sockets see it too", async () => {
    const user = await chatUser();
    const tab = await user.open();
    const clientMessageId = crypto.randomUUID();
    const stream = new FrameStream(
      await postFrame(clientFrames.sendMessage({ content: "over http [[delay:10]]", clientMessageId, isGuest: false, userId: user.user.id }), { token: user.token }),
    );
    await stream.ended;
    expect(stream.invalid).toEqual([]);
    const mine = stream.frames.find((f) => f.event === "new-message" && f.data.clientMessageId === clientMessageId);
    expect(mine).toBeDefined();
    const final = stream.frames.find(finalReply);
    expect(final?.event === "new-message" && final.data.message).toMatchObject({ status: "complete", content: { data: mockReply("over http") } });
    const deltas = stream.frames.flatMap((f) => (f.event === "message-delta" ? [f.data.delta] : []));
    expect(deltas.join("")).toBe(mockReply("over http"));
    // The account's e-mail is not verified: the message counts against its daily quota, as on a socket.
    const left = stream.frames.find((f) => f.event === "remaining-messages");
    expect(left?.data).toMatchObject({ remaining: userChatLimits.unverifiedPerDay - 1, scope: "unverified" });

    // The socket of another tab got the same reply.
    const chatId = (final as Extract<ServerFrame, { event: "new-message" }>).data.message.chatId;
    await tab.next("new-message", (d) => d.message.chatId === chatId && d.message.status === "complete" && d.message.role === "assistant");
    const detail = await json(await call(`/api/chats/${chatId}`, { token: user.token }), chatDetailResponse);
    expect(detail.messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    tab.close();
  });

  it("a guest chats over HTTP with their id, counted like a socket message", async () => {
    const guest = chatGuest();
    const stream = new FrameStream(await postFrame(clientFrames.sendMessage({ content: "guest over http", clientMessageId: "g1", isGuest: true }), { guestId: guest.guestId, ip: guest.ip }));
    await stream.until(finalReply);
    const remaining = await stream.until((f) => f.event === "remaining-messages");
    expect(remaining.data).toMatchObject({ remaining: guestQuota.perGuestPerDay - 1, scope: "guest" });
    await stream.ended;
  });

  it("stop ends a reply started over HTTP; a join over HTTP catches up and follows it to its end", async () => {
    const user = await chatUser();
    const sending = new FrameStream(await postFrame(clientFrames.sendMessage({ content: "[[tokens:200]] [[delay:20]]", clientMessageId: "s1", isGuest: false }), { token: user.token }));
    const thinking = await sending.until((f) => f.event === "thinking");
    const chatId = (thinking as Extract<ServerFrame, { event: "thinking" }>).data.chatId;
    await sending.until((f) => f.event === "message-delta");

    // A second tab (a reload) joins: the text so far from offset 0, then the rest, then the stream ends.
    const joining = new FrameStream(await postFrame(clientFrames.join(chatId), { token: user.token }));
    const snapshot = await joining.until((f) => f.event === "message-delta");
    expect(snapshot.event === "message-delta" && snapshot.data.offset).toBe(0);

    const stopped = await postFrame(clientFrames.stop(chatId), { token: user.token });
    expect(stopped.status).toBe(200);
    await stopped.text();
    const final = await sending.until(finalReply);
    expect(final.event === "new-message" && final.data.message.status).toBe("stopped");
    await Promise.all([sending.ended, joining.ended]);
    expect(joining.frames.some(finalReply)).toBe(true);
  });

  it("a join with no reply running answers the chat's last reply and ends", async () => {
    const user = await chatUser();
    const first = new FrameStream(await postFrame(clientFrames.sendMessage({ content: "hello", clientMessageId: "h1", isGuest: false }), { token: user.token }));
    const final = (await first.until(finalReply)) as Extract<ServerFrame, { event: "new-message" }>;
    await first.ended;
    const joining = new FrameStream(await postFrame(clientFrames.join(final.data.message.chatId), { token: user.token }));
    await joining.ended;
    expect(joining.frames.filter(finalReply).map((f) => (f as typeof final).data.message.id)).toEqual([final.data.message.id]);
  });

  it("regenerate over HTTP writes the last reply again in place", async () => {
    const user = await chatUser();
    const first = new FrameStream(await postFrame(clientFrames.sendMessage({ content: "again", clientMessageId: "r1", isGuest: false }), { token: user.token }));
    const reply = ((await first.until(finalReply)) as Extract<ServerFrame, { event: "new-message" }>).data.message;
    await first.ended;
    const again = new FrameStream(await postFrame(clientFrames.regenerate({ chatId: reply.chatId, messageId: reply.id, clientMessageId: "r2" }), { token: user.token }));
    const final = (await again.until(finalReply)) as Extract<ServerFrame, { event: "new-message" }>;
    expect(final.data.message.id).toBe(reply.id);
    expect(final.data.message.versions?.length).toBe(2);
    await again.ended;
  });
});

describe("chat frames over HTTP: refusals", () => {
  it("no credential, a bad guest id, or a revoked token is a 401 before the room is touched", async () => {
    await expectError(await postFrame(clientFrames.join("x"), {}), 401, serverMessages.authRequired);
    await expectError(await postFrame(clientFrames.join("x"), { guestId: "guest-nope" }), 401, chatMessages.guestIdInvalid);
    const user = await chatUser();
    expect((await call("/api/auth/logout", { method: "POST", token: user.token })).status).toBeLessThan(300);
    await expectError(await postFrame(clientFrames.join("x"), { token: user.token }), 401, serverMessages.sessionExpired);
  });

  it("a frame that does not parse is answered with message-error in the stream; a body past a socket frame's size is 413", async () => {
    const user = await chatUser();
    const bad = new FrameStream(await call(chatFramesPath, { method: "POST", body: "{not json", token: user.token }));
    await bad.ended;
    expect(bad.frames).toEqual([{ event: "message-error", data: { error: chatMessages.invalidFrame } }]);
    const huge = await call(chatFramesPath, { method: "POST", body: "x".repeat(requestBodyLimits.chatFrameBytes + 1), token: user.token });
    expect(huge.status).toBe(413);
  });

  it("the limits of signed-in chat hold over HTTP too: at most a few replies at once", async () => {
    const user = await chatUser();
    const streams = await Promise.all(
      Array.from({ length: userChatLimits.maxRunningReplies + 2 }, async (_, i) =>
        new FrameStream(await postFrame(clientFrames.sendMessage({ content: `[[tokens:30]] [[delay:20]] ${i}`, clientMessageId: `b${i}`, isGuest: false }), { token: user.token })),
      ),
    );
    await Promise.all(streams.map((s) => s.ended));
    const finished = streams.filter((s) => s.frames.some(finalReply));
    const refused = streams.filter((s) => s.frames.some((f) => f.event === "message-error" && f.data.clientMessageId !== undefined));
    expect(finished).toHaveLength(userChatLimits.maxRunningReplies);
    expect(refused).toHaveLength(2);
  });

  it("logging out closes the HTTP stream of a reply being written", async () => {
    const user = await chatUser();
    const sending = new FrameStream(await postFrame(clientFrames.sendMessage({ content: "[[tokens:400]] [[delay:20]]", clientMessageId: "l1", isGuest: false }), { token: user.token }));
    await sending.until((f) => f.event === "message-delta");
    expect((await call("/api/auth/logout", { method: "POST", token: user.token })).status).toBeLessThan(300);
    await sending.ended;
    expect(sending.frames.some(finalReply)).toBe(false);
  });
});

describe("chat frames over HTTP: bounds", () => {
  /** Resolves true when `p` settles within `ms`, false otherwise. */
  const settlesWithin = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  /** How many HTTP frame streams the room holds open now. */
  const openStreams = (roomId: string) =>
    runInDurableObject(getChatRoom(env, roomId), (room) => (room as unknown as { httpSinks: Set<unknown> }).httpSinks.size);

  it("a join that follows a reply ends when its chat is deleted mid-reply, not at the stream's time limit", async () => {
    const user = await chatUser();
    const sending = new FrameStream(await postFrame(clientFrames.sendMessage({ content: "[[tokens:400]] [[delay:20]]", clientMessageId: "d1", isGuest: false }), { token: user.token }));
    const thinking = (await sending.until((f) => f.event === "thinking")) as Extract<ServerFrame, { event: "thinking" }>;
    await sending.until((f) => f.event === "message-delta");
    const joining = new FrameStream(await postFrame(clientFrames.join(thinking.data.chatId), { token: user.token }));
    await joining.until((f) => f.event === "message-delta");
    expect((await call(`/api/chats/${thinking.data.chatId}`, { method: "DELETE", token: user.token })).status).toBeLessThan(300);
    expect(await settlesWithin(sending.ended, 5000)).toBe(true);
    expect(await settlesWithin(joining.ended, 5000)).toBe(true);
  }, 30_000);

  it("one account holds a few streams open at most: past the bound the oldest ends", async () => {
    const user = await chatUser();
    const sending = new FrameStream(await postFrame(clientFrames.sendMessage({ content: "[[tokens:400]] [[delay:20]]", clientMessageId: "m1", isGuest: false }), { token: user.token }));
    const thinking = (await sending.until((f) => f.event === "thinking")) as Extract<ServerFrame, { event: "thinking" }>;
    const joins = await Promise.all(Array.from({ length: 40 }, async () => new FrameStream(await postFrame(clientFrames.join(thinking.data.chatId), { token: user.token }))));
    await Promise.all(joins.map((j) => j.until((f) => f.event === "message-delta")));
    const open = await openStreams(user.roomId);
    for (const j of [...joins, sending]) j.cancel();
    expect(open).toBeLessThanOrEqual(realtime.httpMaxStreams);
    // The ended ones were told nothing was lost: their reply goes on, a join catches up on it.
    expect(joins.slice(0, 10).every((j) => j.frames.some((f) => f.event === "message-delta"))).toBe(true);
  }, 60_000);

  it("a stream carries only its own chat's frames: a reply in another chat does not reach it", async () => {
    const user = await chatUser();
    const first = new FrameStream(await postFrame(clientFrames.sendMessage({ content: "first chat [[tokens:60]] [[delay:20]]", clientMessageId: "a1", isGuest: false }), { token: user.token }));
    const second = new FrameStream(await postFrame(clientFrames.sendMessage({ content: "second chat [[tokens:60]] [[delay:20]]", clientMessageId: "b1", isGuest: false }), { token: user.token }));
    await Promise.all([first.ended, second.ended]);
    const chatsOf = (stream: FrameStream) => new Set(stream.frames.flatMap((f) => (f.event === "message-delta" || f.event === "thinking" ? [f.data.chatId] : f.event === "new-message" ? [f.data.message.chatId] : [])));
    expect(chatsOf(first).size).toBe(1);
    expect(chatsOf(second).size).toBe(1);
    expect([...chatsOf(first)][0]).not.toBe([...chatsOf(second)][0]);
  });

  it("an owner's inbox frame reaches the room's sockets, never an HTTP stream (a dashboard without a socket polls the inbox)", async () => {
    const user = await chatUser();
    const tab = await user.open();
    const sending = new FrameStream(await postFrame(clientFrames.sendMessage({ content: "inbox [[tokens:60]] [[delay:20]]", clientMessageId: "i1", isGuest: false }), { token: user.token }));
    await sending.until((f) => f.event === "thinking");
    const data = { assistantId: "assistant-1", sessionId: "session-1", kind: "typing" as const, typing: true };
    await getChatRoom(env, user.roomId).relayInbox(data);
    expect(await tab.next("inbox")).toEqual(data);
    await sending.ended;
    expect(sending.frames.some(finalReply)).toBe(true);
    expect(sending.frames.filter((f) => f.event === "inbox")).toEqual([]);
    tab.close();
  });
});
