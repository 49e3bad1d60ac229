/**
 * The browser's install offer (spec section 4 "Install button"): captured from `beforeinstallprompt`,
 * replayed when the user clicks Install, forgotten once used, and never offered again after
 * `appinstalled` or when the app already runs standalone.
 */
import { useSyncExternalStore } from "react";

/** Chromium's event (not in TypeScript's DOM types). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: "accepted" | "dismissed"; platform?: string }>;
}

export type InstallOutcome = "accepted" | "dismissed" | "unavailable";

export interface InstallPromptState {
  /** True while the browser offers installation and the app is not installed. */
  canInstall: boolean;
  installed: boolean;
}

export interface InstallPromptStore {
  getSnapshot(): InstallPromptState;
  subscribe(listener: () => void): () => void;
  /** Shows the browser's install dialog. The event can be used once, so the button goes away either way. */
  install(): Promise<InstallOutcome>;
}

/** A store listening on `target` (window). `isStandalone` says whether the app already runs installed. */
export function createInstallPromptStore(target: EventTarget, isStandalone: () => boolean): InstallPromptStore {
  let deferred: BeforeInstallPromptEvent | null = null;
  let state: InstallPromptState = { canInstall: false, installed: isStandalone() };
  const listeners = new Set<() => void>();
  const update = (installed: boolean) => {
    const canInstall = deferred !== null && !installed;
    if (state.canInstall === canInstall && state.installed === installed) return;
    state = { canInstall, installed };
    for (const listener of listeners) listener();
  };

  target.addEventListener("beforeinstallprompt", (event) => {
    // Keep the browser's own mini-infobar away; the Install button replays this event.
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    update(state.installed || isStandalone());
  });
  target.addEventListener("appinstalled", () => {
    deferred = null;
    update(true);
  });

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async install() {
      const event = deferred;
      if (!event) return "unavailable";
      deferred = null;
      try {
        await event.prompt();
        const { outcome } = await event.userChoice;
        update(state.installed || outcome === "accepted");
        return outcome;
      } catch {
        update(state.installed);
        return "unavailable";
      }
    },
  };
}

const SERVER_STATE: InstallPromptState = { canInstall: false, installed: false };
let browserStore: InstallPromptStore | undefined;

/**
 * The page's store, created on first call. Call it at start-up (main.tsx, before rendering):
 * `beforeinstallprompt` can fire before any component mounts, and an event missed is not repeated.
 */
export function captureInstallPrompt(): InstallPromptStore | undefined {
  if (typeof window === "undefined") return undefined;
  browserStore ??= createInstallPromptStore(window, () => {
    const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
    return iosStandalone || window.matchMedia?.("(display-mode: standalone)").matches === true;
  });
  return browserStore;
}

const noop = () => () => undefined;

/** `{ canInstall, installed, install }` for the current page. */
export function useInstallPrompt(): InstallPromptState & { install: () => Promise<InstallOutcome> } {
  const store = captureInstallPrompt();
  const state = useSyncExternalStore(store?.subscribe ?? noop, store?.getSnapshot ?? (() => SERVER_STATE), () => SERVER_STATE);
  return { ...state, install: store ? store.install : async () => "unavailable" };
}
