import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toast as toastTiming } from "../../../contract";
import { createToastStore } from "./toast";

describe("toast store", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("auto-dismisses after 2000 ms by default", () => {
    const store = createToastStore();
    store.getState().show({ description: "Saved" });
    vi.advanceTimersByTime(toastTiming.generalMs - 1);
    expect(store.getState().current?.description).toBe("Saved");
    vi.advanceTimersByTime(1);
    expect(store.getState().current).toBeNull();
  });

  it("shows one at a time: a new toast replaces the current one and restarts the timer", () => {
    const store = createToastStore();
    store.getState().show({ description: "First" });
    vi.advanceTimersByTime(1500);
    store.getState().show({ description: "Second", variant: "destructive" });
    expect(store.getState().current).toMatchObject({ description: "Second", variant: "destructive" });
    vi.advanceTimersByTime(1500);
    expect(store.getState().current?.description).toBe("Second");
    vi.advanceTimersByTime(500);
    expect(store.getState().current).toBeNull();
  });

  it("honours a custom duration (realtime notices)", () => {
    const store = createToastStore();
    store.getState().show({ description: "Reconnected", durationMs: toastTiming.realtimeShortMs });
    vi.advanceTimersByTime(2999);
    expect(store.getState().current).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(store.getState().current).toBeNull();
  });

  it("dismissing an old id leaves the newer toast alone", () => {
    const store = createToastStore();
    const first = store.getState().show({ description: "First" });
    store.getState().show({ description: "Second" });
    store.getState().dismiss(first);
    expect(store.getState().current?.description).toBe("Second");
  });
});
