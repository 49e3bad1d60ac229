import { widgetSdkMessages } from "../../contract/widget-strings";
import type { CoreFactory, CoreHandle, TalaCommand, TalaEvent, TalaEventMap, TalaListener, TalaOptions, TalaTokenRefresh } from "./types";

/**
 * The public `Tala` API: usable at once, before the core has loaded. Calls made early are queued
 * and replayed in order when it has (formbricks' command queue); `on`/`off` work at any time.
 * Nothing here throws into the host page: every failure becomes an `error` event or is dropped.
 */
export interface TalaApi {
  /** Starts the widget (the core loads on idle or first interaction; `open()` loads it at once). */
  init(options: TalaOptions): void;
  open(): void;
  close(): void;
  toggle(): void;
  /** Removes the widget and its listeners on the page; `init` may be called again. */
  destroy(): void;
  setLocale(locale: string): void;
  /**
   * Signs the visitor in with a user token your server signed (see `TalaOptions.userToken`).
   * `refresh`, when given, is asked for a new token when the server refuses this one (see
   * `TalaOptions.refreshToken`).
   */
  identify(token: string, refresh?: TalaTokenRefresh): void;
  /** Signs the visitor out: their token and stored conversation are dropped; an anonymous chat starts. */
  logout(): void;
  on<E extends TalaEvent>(event: E, listener: TalaListener<E>): void;
  off<E extends TalaEvent>(event: E, listener: TalaListener<E>): void;
}

/** Fetches the core's factory (a script tag, or a bundled import). */
export type CoreLoader = (options: TalaOptions) => Promise<CoreFactory>;
/** Calls `start` when the page is idle or the visitor interacts; returns a cancel function. */
export type Scheduler = (start: () => void) => () => void;

const now: Scheduler = (start) => {
  start();
  return () => {};
};

export function createFacade(loadCore: CoreLoader, schedule: Scheduler = now): TalaApi {
  const listeners = new Map<TalaEvent, Set<(payload: never) => void>>();
  let options: TalaOptions | null = null;
  let core: CoreHandle | null = null;
  let queue: [TalaCommand, unknown[]][] = [];
  let loading = false;
  let cancel = () => {};
  /** Bumped by destroy(): a load finishing after it belongs to a widget that no longer exists. */
  let generation = 0;

  const emit = <E extends TalaEvent>(event: E, payload: TalaEventMap[E]) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        (listener as TalaListener<E>)(payload);
      } catch {
        // A host's listener failing must not break the widget.
      }
    }
  };

  const failed = () => {
    loading = false;
    queue = [];
    emit("error", { error: widgetSdkMessages.loadFailed });
  };

  const load = () => {
    if (loading || core || !options) return;
    loading = true;
    cancel();
    const mine = generation;
    loadCore(options).then(
      (factory) => {
        if (mine !== generation || !options) return;
        loading = false;
        try {
          core = factory(options, emit);
        } catch {
          return failed();
        }
        const pending = queue;
        queue = [];
        for (const [name, args] of pending) run(name, args);
      },
      () => mine === generation && failed(),
    );
  };

  const run = (name: TalaCommand, args: unknown[]) => {
    try {
      (core![name] as (...a: unknown[]) => void)(...args);
    } catch {
      // The core guards itself; this is a last fence for the host page.
    }
  };

  const command =
    (name: TalaCommand) =>
    (...args: unknown[]) => {
      if (core) return run(name, args);
      if (!options) return;
      // Before the core is there, the token is simply the one it will start with.
      if (name === "identify" || name === "logout") {
        const refresh = args[1] as TalaTokenRefresh | undefined;
        options = { ...options, userToken: name === "identify" ? (args[0] as string) || undefined : undefined, ...(refresh && { refreshToken: refresh }) };
        return;
      }
      queue.push([name, args]);
      // The visitor (or the host) wants the chat now: don't wait for idle.
      if (name === "open" || name === "toggle") load();
    };

  const destroy = () => {
    generation++;
    cancel();
    cancel = () => {};
    queue = [];
    loading = false;
    options = null;
    const c = core;
    core = null;
    try {
      c?.destroy();
    } catch {
      // already gone
    }
  };

  return {
    init(next) {
      try {
        if (!next || typeof next.apiKey !== "string" || !next.apiKey || typeof next.host !== "string" || !next.host) {
          emit("error", { error: widgetSdkMessages.initNeedsKeyAndHost });
          return;
        }
        if (options) destroy();
        options = { ...next, host: next.host.replace(/\/+$/, "") };
        if (next.open) queue.push(["open", []]);
        cancel = schedule(load);
        // The host wants the panel open (data-open, init's open): like open(), no wait for idle.
        if (next.open) load();
      } catch {
        // never into the host page
      }
    },
    open: command("open"),
    close: command("close"),
    toggle: command("toggle"),
    setLocale: command("setLocale"),
    identify: command("identify"),
    logout: command("logout"),
    destroy,
    on(event, listener) {
      if (typeof listener !== "function") return;
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener);
    },
  };
}
