/**
 * The Public Assistants screen's state: the owner's assistants and the full API keys fetched so far.
 * A full key is fetched once per assistant and kept in memory only (spec section 4: reveal fetches
 * it once and caches it; copy fetches it first when not cached), never in storage.
 */
import { create } from "zustand";
import { publicAssistantMessages, type PublicAssistant } from "../../../contract";
import { errorMessage } from "../lib/api";
import { publicAssistantsApi, type PublicAssistantsApi } from "../lib/public-assistants-api";
import { toast } from "./toast";

export type ListStatus = "loading" | "ready" | "error";

interface PublicAssistantsState {
  status: ListStatus;
  assistants: PublicAssistant[];
  /** Assistant id → its full API key, once fetched. */
  fullKeys: Record<string, string>;
  /** Loads the list. `quiet` keeps what is on screen while reloading (no spinner, no error state). */
  load: (opts?: { quiet?: boolean }) => Promise<void>;
  /** The full key, from the cache or fetched (and cached). Throws what the API threw. */
  fullKey: (id: string) => Promise<string>;
  setFullKey: (id: string, key: string) => void;
  forgetKey: (id: string) => void;
  /** Forgets everything (the screen unmounts: keys never outlive it). */
  reset: () => void;
}

/** A failure toast for an action without a title of its own in the catalogue: the fallback, then the server's reason. */
export function failureToast(err: unknown, fallback: string, extra?: string) {
  const message = errorMessage(err, fallback);
  const details = [message === fallback ? null : message, extra].filter(Boolean).join(" ");
  toast({ variant: "destructive", title: fallback, description: details || undefined });
}

export function createPublicAssistantsStore(apiImpl: PublicAssistantsApi = publicAssistantsApi) {
  let loadSeq = 0;
  const pendingKeys = new Map<string, Promise<string>>();
  return create<PublicAssistantsState>()((set, get) => ({
    status: "loading",
    assistants: [],
    fullKeys: {},
    load: async ({ quiet = false } = {}) => {
      const seq = ++loadSeq;
      if (!quiet) set({ status: "loading" });
      try {
        const assistants = await apiImpl.list();
        if (seq === loadSeq) set({ assistants, status: "ready" });
      } catch (err) {
        if (seq !== loadSeq) return;
        if (!quiet || get().status !== "ready") set({ status: "error" });
        failureToast(err, publicAssistantMessages.fetchFailed);
      }
    },
    fullKey: async (id) => {
      const cached = get().fullKeys[id];
      if (cached) return cached;
      let pending = pendingKeys.get(id);
      if (!pending) {
        pending = apiImpl.rawApiKey(id).finally(() => pendingKeys.delete(id));
        pendingKeys.set(id, pending);
      }
      const key = await pending;
      get().setFullKey(id, key);
      return key;
    },
    setFullKey: (id, key) => set((s) => ({ fullKeys: { ...s.fullKeys, [id]: key } })),
    forgetKey: (id) =>
      set((s) => {
        const { [id]: _gone, ...rest } = s.fullKeys;
        return { fullKeys: rest };
      }),
    reset: () => {
      loadSeq++;
      pendingKeys.clear();
      set({ status: "loading", assistants: [], fullKeys: {} });
    },
  }));
}

export const usePublicAssistants = createPublicAssistantsStore();
