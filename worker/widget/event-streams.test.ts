import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { widgetSocketClose, type WidgetServerFrame } from "../../contract";
import { heldEventStream } from "../http/held-event-stream";
import { VisitorEventStreams, type VisitorEventStreamLimits } from "./event-streams";
import type { WidgetIdentity } from "./room-identity";

const limits: VisitorEventStreamLimits = { heartbeatMs: 1_000, maxMs: 10_000, maxQueued: 3, maxStreams: 2 };
const identity = (over: Partial<WidgetIdentity> = {}): WidgetIdentity => ({
  assistantId: "a1",
  sessionId: "s1",
  keyHash: "0".repeat(64),
  origin: "https://shop.example",
  ip: "10.0.0.1",
  ...over,
});
const typing: WidgetServerFrame = { event: "typing", data: { chatId: "s1", typing: true, name: "Ana" } };

/** Reads a held stream's text as it comes. */
function readAll(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen = { text: "", done: false };
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen.text += value;
    }
    seen.done = true;
  })();
  return { seen, reader };
}

/** Lets the streams' promise jobs run (fake timers leave microtasks alone). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe("heldEventStream", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("writes a heartbeat comment every heartbeatMs and ends at maxMs", async () => {
    const stream = heldEventStream(limits);
    const { seen } = readAll(stream.response);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await vi.advanceTimersByTimeAsync(limits.heartbeatMs * 3);
    await settle();
    expect(seen.text).toBe(": keep-alive\n\n".repeat(3));
    expect(stream.open).toBe(true);
    await vi.advanceTimersByTimeAsync(limits.maxMs - limits.heartbeatMs * 3);
    await settle();
    expect(stream.open).toBe(false);
    expect(seen.done).toBe(true);
    // Nothing is written once ended, and no timer is left behind.
    stream.write("data: late\n\n");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("cuts a reader that stopped reading once maxQueued writes wait, instead of buffering", async () => {
    const stream = heldEventStream(limits);
    // Nobody reads the response.
    for (let i = 0; i < limits.maxQueued + 5; i++) stream.write(`data: ${i}\n\n`);
    await settle();
    expect(stream.open).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ends when the client hangs up", async () => {
    const stream = heldEventStream(limits);
    const { reader } = readAll(stream.response);
    await reader.cancel();
    await settle();
    expect(stream.open).toBe(false);
    await expect(stream.closed).resolves.toBeUndefined();
  });
});

describe("VisitorEventStreams", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("delivers a frame to every stream as an SSE event", async () => {
    const streams = new VisitorEventStreams(limits);
    const a = readAll(streams.open(identity(), () => {}).stream.response);
    const b = readAll(streams.open(identity(), () => {}).stream.response);
    streams.deliver(typing);
    await settle();
    const event = `event: typing\ndata: ${JSON.stringify(typing.data)}\n\n`;
    expect([a.seen.text, b.seen.text]).toEqual([event, event]);
  });

  it("past maxStreams ends the oldest; onEnded runs once per stream, however it ends", async () => {
    const streams = new VisitorEventStreams(limits);
    const ended: string[] = [];
    const first = streams.open(identity({ ip: "first" }), (e) => ended.push(e.identity.ip));
    streams.open(identity({ ip: "second" }), (e) => ended.push(e.identity.ip));
    const third = streams.open(identity({ ip: "third" }), (e) => ended.push(e.identity.ip));
    await settle();
    expect(first.stream.open).toBe(false);
    expect(streams.size).toBe(2);
    expect(ended).toEqual(["first"]);
    third.stream.close();
    third.stream.close();
    await settle();
    expect(ended).toEqual(["first", "third"]);
    expect(streams.first()?.identity.ip).toBe("second");
  });

  it("refuse writes the message-error, then ends the refused streams only", async () => {
    const streams = new VisitorEventStreams({ ...limits, maxStreams: 4 });
    const refused = streams.open(identity({ origin: "https://gone.example" }), () => {});
    const kept = streams.open(identity(), () => {});
    const read = readAll(refused.stream.response);
    const result = streams.refuse(widgetSocketClose.originNotAllowed, (who) => who.origin === "https://gone.example");
    expect(result).toEqual({ closed: 1, open: 1 });
    await settle();
    const { reason, refusal } = widgetSocketClose.originNotAllowed;
    expect(read.seen.text).toBe(`event: message-error\ndata: ${JSON.stringify({ error: reason, reason: refusal, chatId: "s1" })}\n\n`);
    expect(read.seen.done).toBe(true);
    expect(kept.stream.open).toBe(true);
  });

  it("endVerified ends the signed visitors' streams with no message-error", async () => {
    const streams = new VisitorEventStreams({ ...limits, maxStreams: 4 });
    const signed = streams.open(identity({ visitorSub: "customer-7" }), () => {});
    const anonymous = streams.open(identity(), () => {});
    const read = readAll(signed.stream.response);
    expect(streams.endVerified()).toEqual({ closed: 1, open: 1 });
    await settle();
    expect(read.seen).toEqual({ text: "", done: true });
    expect(anonymous.stream.open).toBe(true);
  });
});
