import { useCallback, useEffect, useState } from "react";
import { errorMessage } from "./api";

/** What a panel read from the API: still loading, the value, or the message to show with a retry. */
export type Loaded<T> = { kind: "loading" } | { kind: "ready"; value: T } | { kind: "error"; message: string };

/**
 * Reads `fetch` when the panel mounts (and when `fetch` changes), aborting it when the panel
 * goes; `reload` reads again (the retry), `set` replaces the value after a change the panel made.
 * A failure keeps the API's message, else `failed`.
 */
export function useLoaded<T>(fetch: (signal?: AbortSignal) => Promise<T>, failed: string) {
  const [state, setState] = useState<Loaded<T>>({ kind: "loading" });
  const reload = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const value = await fetch(signal);
        if (!signal?.aborted) setState({ kind: "ready", value });
      } catch (err) {
        if (!signal?.aborted) setState({ kind: "error", message: errorMessage(err, failed) });
      }
    },
    [fetch, failed],
  );
  useEffect(() => {
    const controller = new AbortController();
    void reload(controller.signal);
    return () => controller.abort();
  }, [reload]);
  return { state, reload, set: setState };
}
