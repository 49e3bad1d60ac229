/**
 * The upload progress rule (spec sections 4 and 9): from 0, a timer adds 10 every 500 ms and the
 * real bytes sent push it too, but it stays at or below 90 until the server answers; at 90 or more
 * the label reads 'Uploading & Processing'; success sets 100; failure resets. Pure, unit-tested.
 */
import { publicAssistantMessages, publicAssistantUi, upload } from "../../../../contract";

const { capPercent, timerStepPercent, timerIntervalMs } = upload.progress;

export interface UploadProgressState {
  status: "idle" | "uploading" | "done";
  percent: number;
}

export type UploadProgressAction =
  | { type: "start" }
  | { type: "tick" }
  | { type: "sent"; loaded: number; total: number }
  | { type: "succeed" }
  | { type: "reset" };

export const initialUploadProgress: UploadProgressState = { status: "idle", percent: 0 };

export function uploadProgressReducer(state: UploadProgressState, action: UploadProgressAction): UploadProgressState {
  switch (action.type) {
    case "start":
      return { status: "uploading", percent: 0 };
    case "tick":
      if (state.status !== "uploading") return state;
      return { ...state, percent: Math.min(capPercent, state.percent + timerStepPercent) };
    case "sent": {
      if (state.status !== "uploading" || !(action.total > 0)) return state;
      const real = Math.floor((Math.min(action.loaded, action.total) / action.total) * 100);
      const percent = Math.max(state.percent, Math.min(capPercent, real));
      return percent === state.percent ? state : { ...state, percent };
    }
    case "succeed":
      return { status: "done", percent: 100 };
    case "reset":
      return initialUploadProgress;
  }
}

/**
 * The words above the bar: 'Uploading & Processing' from 90 on, else 'Uploading'. The percentage
 * is said once, beside them, from the same state as the bar's width.
 */
export function uploadProgressLabel(state: UploadProgressState): string {
  if (state.percent >= capPercent) return publicAssistantMessages.uploadingAndProcessing;
  return publicAssistantUi.upload.uploading;
}

export interface IntervalTimers {
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (id: never) => void;
}

const realTimers: IntervalTimers = {
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (id) => globalThis.clearInterval(id),
};

/** Starts the 500 ms timer that dispatches `tick`; returns the function that stops it. */
export function startProgressTimer(dispatch: (action: UploadProgressAction) => void, timers: IntervalTimers = realTimers): () => void {
  const id = timers.setInterval(() => dispatch({ type: "tick" }), timerIntervalMs);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    timers.clearInterval(id as never);
  };
}
