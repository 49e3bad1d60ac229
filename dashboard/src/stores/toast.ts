/**
 * Toasts (spec section 2): one at a time, a new one replaces the current, each auto-dismisses
 * (2 s by default; realtime notices pass 3 s or 5 s). `toast()` is what every screen calls.
 */
import { createStore, useStore } from "zustand";
import { toast as toastTiming } from "../../../contract";

export type ToastVariant = "default" | "destructive" | "success";

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before it disappears; defaults to the general 2000 ms. */
  durationMs?: number;
}

export interface Toast extends Required<Pick<ToastInput, "variant" | "durationMs">> {
  id: number;
  title?: string;
  description?: string;
}

interface ToastState {
  current: Toast | null;
  show: (input: ToastInput) => number;
  dismiss: (id?: number) => void;
}

type TimerId = ReturnType<typeof setTimeout>;
export interface ToastTimers {
  set: (fn: () => void, ms: number) => TimerId;
  clear: (id: TimerId) => void;
}

const realTimers: ToastTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (id) => clearTimeout(id),
};

export function createToastStore(timers: ToastTimers = realTimers) {
  let nextId = 1;
  let timer: TimerId | undefined;

  return createStore<ToastState>()((set, get) => ({
    current: null,
    show: (input) => {
      const id = nextId++;
      const durationMs = input.durationMs ?? toastTiming.generalMs;
      if (timer !== undefined) timers.clear(timer);
      set({
        current: { id, title: input.title, description: input.description, variant: input.variant ?? "default", durationMs },
      });
      timer = timers.set(() => get().dismiss(id), durationMs);
      return id;
    },
    dismiss: (id) => {
      const current = get().current;
      if (!current || (id !== undefined && current.id !== id)) return;
      if (timer !== undefined) timers.clear(timer);
      timer = undefined;
      set({ current: null });
    },
  }));
}

export const toastStore = createToastStore();

/** Shows a toast, replacing any visible one. Returns its id (for an early `dismissToast`). */
export function toast(input: ToastInput | string): number {
  return toastStore.getState().show(typeof input === "string" ? { description: input } : input);
}

export function dismissToast(id?: number): void {
  toastStore.getState().dismiss(id);
}

export function useToastState<T>(selector: (s: ToastState) => T): T {
  return useStore(toastStore, selector);
}
