import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../lib/api";
import type { PublicAssistantsApi } from "../lib/public-assistants-api";
import { createPublicAssistantsStore } from "./public-assistants";
import { dismissToast, toastStore } from "./toast";

function fakeApi(overrides: Partial<PublicAssistantsApi> = {}) {
  return { list: vi.fn(async () => []), rawApiKey: vi.fn(async (id: string) => `full-${id}`), ...overrides } as unknown as PublicAssistantsApi;
}

afterEach(() => dismissToast());

describe("public assistants store", () => {
  it("fetches a full key once per assistant and caches it (spec section 4)", async () => {
    const api = fakeApi();
    const store = createPublicAssistantsStore(api);
    const [a, b] = await Promise.all([store.getState().fullKey("pa1"), store.getState().fullKey("pa1")]);
    expect(a).toBe("full-pa1");
    expect(b).toBe("full-pa1");
    expect(await store.getState().fullKey("pa1")).toBe("full-pa1");
    expect(api.rawApiKey).toHaveBeenCalledTimes(1);
    expect(store.getState().fullKeys).toEqual({ pa1: "full-pa1" });
  });

  it("fetches again after a failure, and forgets keys on reset", async () => {
    let fail = true;
    const api = fakeApi({
      rawApiKey: vi.fn(async () => {
        if (fail) throw new ApiError({ message: "nope", status: 500, code: "INTERNAL_ERROR", fromServer: true });
        return "k";
      }),
    });
    const store = createPublicAssistantsStore(api);
    await expect(store.getState().fullKey("pa1")).rejects.toThrow("nope");
    fail = false;
    expect(await store.getState().fullKey("pa1")).toBe("k");
    store.getState().reset();
    expect(store.getState().fullKeys).toEqual({});
    expect(store.getState().status).toBe("loading");
  });

  it("shows 'Failed to fetch Public Assistants' with the server's reason when the list fails", async () => {
    const api = fakeApi({
      list: vi.fn(async () => {
        throw new ApiError({ message: "Please sign in to continue.", status: 401, code: "UNAUTHORIZED", fromServer: true });
      }),
    });
    const store = createPublicAssistantsStore(api);
    await store.getState().load();
    expect(store.getState().status).toBe("error");
    expect(toastStore.getState().current).toMatchObject({
      variant: "destructive",
      title: "Failed to fetch Public Assistants",
      description: "Please sign in to continue.",
    });
  });

  it("a quiet reload keeps the list on screen when it fails", async () => {
    let calls = 0;
    const api = fakeApi({
      list: vi.fn(async () => {
        if (calls++ > 0) throw new Error("offline");
        return [];
      }),
    });
    const store = createPublicAssistantsStore(api);
    await store.getState().load();
    await store.getState().load({ quiet: true });
    expect(store.getState().status).toBe("ready");
    expect(toastStore.getState().current?.title).toBe("Failed to fetch Public Assistants");
    expect(toastStore.getState().current?.description).toBeUndefined();
  });
});
