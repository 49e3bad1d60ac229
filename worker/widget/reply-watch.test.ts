import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { InboxFrameData, WidgetServerFrame } from "../../contract";
import { watchReply } from "./reply-watch";

const base = { assistantId: "a1", sessionId: "s1" };
const thinking: WidgetServerFrame = { event: "thinking", data: { chatId: "s1", messageId: "m1" } };
const delta = (text: string, offset: number, messageId = "m1"): WidgetServerFrame => ({ event: "message-delta", data: { chatId: "s1", messageId, delta: text, offset } });
const final: WidgetServerFrame = { event: "remaining-messages", data: { remaining: 3, limit: 5 } };

describe("watchReply", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("nobody watching: the turn's own emit, unwrapped, and nothing relayed", async () => {
    const emit = vi.fn();
    const relay = vi.fn(async () => {});
    const watch = watchReply(emit, { ...base, rooms: [], relay });
    expect(watch.emit).toBe(emit);
    watch.emit(thinking);
    await watch.done();
    expect(relay).not.toHaveBeenCalled();
  });

  it("streams thinking at once and the deltas in batches at most every batchMs, the last batch when the reply ends", async () => {
    const visitor: WidgetServerFrame[] = [];
    const told: { rooms: readonly string[]; data: InboxFrameData; at: number }[] = [];
    const watch = watchReply((f) => visitor.push(f), {
      ...base,
      rooms: ["user-1"],
      batchMs: 250,
      relay: async (rooms, data) => void told.push({ rooms, data, at: Date.now() }),
    });
    const start = Date.now();
    watch.emit(thinking);
    let offset = 0;
    for (let i = 0; i < 12; i++) {
      const text = `w${i} `;
      watch.emit(delta(text, offset));
      offset += text.length;
      await vi.advanceTimersByTimeAsync(50);
    }
    watch.emit({ event: "new-message", data: { message: { id: "m1", chatId: "s1", role: "assistant", content: { type: "text", data: "" }, files: [], timestamp: 1, status: "complete" } } });
    watch.emit(final);
    await watch.done();

    // The visitor got every frame, in order, as it was emitted.
    expect(visitor.map((f) => f.event)).toEqual(["thinking", ...Array(12).fill("message-delta"), "new-message", "remaining-messages"]);
    expect(told[0]!.data).toEqual({ ...base, kind: "thinking", messageId: "m1" });
    const batches = told.slice(1).map((t) => t.data);
    expect(batches.every((d) => d.kind === "delta" && d.delta?.messageId === "m1")).toBe(true);
    // 12 deltas over 600 ms: three batches (at 250 ms, 500 ms, and the rest at the end), contiguous.
    expect(batches).toHaveLength(3);
    expect(batches.map((d) => d.delta!.text).join("")).toBe(Array.from({ length: 12 }, (_, i) => `w${i} `).join(""));
    let next = 0;
    for (const d of batches) {
      expect(d.delta!.offset).toBe(next);
      next += d.delta!.text.length;
    }
    expect(told[1]!.at - start).toBeGreaterThanOrEqual(250);
    expect(told.every((t) => t.rooms[0] === "user-1")).toBe(true);
  });

  it("a slow owner never delays the visitor, and relays stay in order", async () => {
    const visitor: string[] = [];
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const watch = watchReply((f) => visitor.push(f.event), {
      ...base,
      rooms: ["user-1", "user-2"],
      batchMs: 10,
      relay: async (_rooms, data) => {
        if (data.kind === "thinking") await gate;
        order.push(data.kind === "delta" ? `delta:${data.delta!.text}` : data.kind);
      },
    });
    watch.emit(thinking);
    watch.emit(delta("a", 0));
    await vi.advanceTimersByTimeAsync(20);
    watch.emit(delta("b", 1));
    watch.emit({ event: "message-error", data: { error: "failed", chatId: "s1" } });
    expect(visitor).toEqual(["thinking", "message-delta", "message-delta", "message-error"]);
    expect(order).toEqual([]);
    release();
    await watch.done();
    expect(order).toEqual(["thinking", "delta:a", "delta:b"]);
  });

  it("a delta of another reply, or one that does not follow, starts a new batch", async () => {
    const told: InboxFrameData[] = [];
    const watch = watchReply(() => {}, { ...base, rooms: ["user-1"], batchMs: 1000, relay: async (_r, d) => void told.push(d) });
    watch.emit(delta("ab", 0));
    watch.emit(delta("zz", 10));
    watch.emit(delta("cd", 0, "m2"));
    await watch.done();
    expect(told.map((d) => d.delta)).toEqual([
      { messageId: "m1", offset: 0, text: "ab" },
      { messageId: "m1", offset: 10, text: "zz" },
      { messageId: "m2", offset: 0, text: "cd" },
    ]);
  });
});
