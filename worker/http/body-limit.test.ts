import { describe, expect, it } from "vitest";
import { readCapped } from "./body-limit";

/** A stream of `chunks` chunks of `size` bytes; `state` tells how many were pulled and whether it was cancelled. */
function streamOf(chunks: number, size: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === chunks) return controller.close();
      state.pulled++;
      controller.enqueue(new Uint8Array(size).fill(state.pulled));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe("readCapped", () => {
  it("answers the whole body, in order, when it is within the cap", async () => {
    const { stream } = streamOf(3, 4);
    expect((await readCapped(stream, 12, 0))!.flatMap((chunk) => Array.from(chunk))).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
  });

  it("past the cap, reads the rest to its end before answering null", async () => {
    const { stream, state } = streamOf(10, 4);
    expect(await readCapped(stream, 8, 100)).toBeNull();
    expect(state.pulled).toBe(10);
    expect(state.cancelled).toBe(false);
  });

  it("cancels a body longer than the cap and the drain bound together", async () => {
    const { stream, state } = streamOf(1000, 4);
    expect(await readCapped(stream, 8, 20)).toBeNull();
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(12);
  });
});
