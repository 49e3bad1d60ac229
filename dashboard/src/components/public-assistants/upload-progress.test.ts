import { describe, expect, it, vi } from "vitest";
import {
  initialUploadProgress,
  startProgressTimer,
  uploadProgressLabel,
  uploadProgressReducer as reduce,
  type UploadProgressAction,
  type UploadProgressState,
} from "./upload-progress";

const run = (actions: UploadProgressAction[], from: UploadProgressState = initialUploadProgress) => actions.reduce(reduce, from);

describe("upload progress rule (spec sections 4 and 9)", () => {
  it("starts at 0 and the timer adds 10 per tick, never past 90 before the answer", () => {
    expect(run([{ type: "start" }])).toEqual({ status: "uploading", percent: 0 });
    expect(run([{ type: "start" }, { type: "tick" }, { type: "tick" }]).percent).toBe(20);
    const ticks = Array.from({ length: 30 }, () => ({ type: "tick" }) as const);
    expect(run([{ type: "start" }, ...ticks]).percent).toBe(90);
  });

  it("real bytes push it forward too, capped at 90, and never move it back", () => {
    const s = run([{ type: "start" }, { type: "sent", loaded: 55, total: 100 }]);
    expect(s.percent).toBe(55);
    expect(reduce(s, { type: "sent", loaded: 30, total: 100 }).percent).toBe(55);
    expect(reduce(s, { type: "tick" }).percent).toBe(65);
    expect(reduce(s, { type: "sent", loaded: 100, total: 100 }).percent).toBe(90);
    expect(reduce(s, { type: "sent", loaded: 10, total: 0 })).toBe(s);
  });

  it("goes to 100 on success and back to idle 0 on failure", () => {
    const s = run([{ type: "start" }, { type: "tick" }, { type: "succeed" }]);
    expect(s).toEqual({ status: "done", percent: 100 });
    expect(reduce(s, { type: "tick" })).toBe(s);
    expect(run([{ type: "start" }, { type: "tick" }, { type: "reset" }])).toEqual({ status: "idle", percent: 0 });
  });

  it("ignores ticks and bytes when no upload runs", () => {
    expect(reduce(initialUploadProgress, { type: "tick" })).toBe(initialUploadProgress);
    expect(reduce(initialUploadProgress, { type: "sent", loaded: 5, total: 10 })).toBe(initialUploadProgress);
  });

  it("labels 90 and above 'Uploading & Processing', below it 'Uploading' (the percentage is shown once, beside the label)", () => {
    expect(uploadProgressLabel({ status: "uploading", percent: 40 })).toBe("Uploading");
    expect(uploadProgressLabel({ status: "uploading", percent: 89 })).toBe("Uploading");
    expect(uploadProgressLabel({ status: "uploading", percent: 90 })).toBe("Uploading & Processing");
    expect(uploadProgressLabel({ status: "done", percent: 100 })).toBe("Uploading & Processing");
  });
});

describe("startProgressTimer", () => {
  it("dispatches a tick every 500 ms until stopped", () => {
    vi.useFakeTimers();
    try {
      const dispatch = vi.fn();
      const stop = startProgressTimer(dispatch);
      vi.advanceTimersByTime(499);
      expect(dispatch).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(dispatch).toHaveBeenCalledWith({ type: "tick" });
      vi.advanceTimersByTime(1000);
      expect(dispatch).toHaveBeenCalledTimes(3);
      stop();
      stop();
      vi.advanceTimersByTime(5000);
      expect(dispatch).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("with the reducer, reaches the 90 cap after 4.5 s of a slow server", () => {
    vi.useFakeTimers();
    try {
      let state = reduce(initialUploadProgress, { type: "start" });
      const stop = startProgressTimer((a) => (state = reduce(state, a)));
      vi.advanceTimersByTime(4000);
      expect(state.percent).toBe(80);
      vi.advanceTimersByTime(10_000);
      expect(state.percent).toBe(90);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
