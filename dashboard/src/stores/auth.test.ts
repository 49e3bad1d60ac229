import { beforeEach, describe, expect, it, vi } from "vitest";
import { accountMessages, storageKeys, type User } from "../../../contract";
import type { AccountApi } from "../lib/account";
import { ActionError, ApiError } from "../lib/api";
import { SupersededPopupError } from "../lib/google-sign-in";
import { installMemoryStorage } from "../test/memory-storage";
import { createAuthStore, type AuthDeps } from "./auth";

const user: User = {
  id: "u1",
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "",
  birthDate: "",
  photoURL: null,
  isEmailVerified: false,
  hasPassword: true,
  createdAt: 0,
};
const unauthorized = () => new ApiError({ message: "Please sign in to continue.", status: 401, code: "UNAUTHORIZED", fromServer: true });

function setup(overrides: Partial<AccountApi> = {}, google: Partial<AuthDeps["google"]> = {}) {
  const api = {
    me: vi.fn(async () => user),
    login: vi.fn(async () => ({ token: "t-login", user })),
    register: vi.fn(async () => ({ token: "t-reg", user })),
    logout: vi.fn(async () => undefined),
    googleCallback: vi.fn(async () => ({ token: "t-google", user })),
    config: vi.fn(async () => ({ environment: "local", firebase: { apiKey: "k", authDomain: "d", projectId: "p" } })),
    ...overrides,
  } as unknown as AccountApi;
  const navigate = vi.fn();
  const deps: AuthDeps = {
    api,
    navigate,
    google: {
      signIn: vi.fn(async () => ({
        payload: { idToken: "id", uid: "g1", email: "ada@example.com", displayName: "Ada", photoURL: null },
        user: { uid: "g1", email: "ada@example.com", displayName: "Ada", photoURL: null },
      })),
      signOut: vi.fn(async () => undefined),
      watch: vi.fn(async (_config, onUser) => {
        onUser(null);
        return () => undefined;
      }),
      ...google,
    },
  };
  return { store: createAuthStore(deps), api, navigate, deps };
}

let stores: ReturnType<typeof installMemoryStorage>;
beforeEach(() => {
  stores = installMemoryStorage();
});

describe("auth store: init", () => {
  it("starts loading", () => {
    const { store } = setup();
    expect(store.getState()).toMatchObject({ status: "loading", isLoading: true, isAuthenticated: false });
  });

  it("is anonymous with nothing stored, without calling the server", async () => {
    const { store, api } = setup();
    await store.getState().init();
    expect(store.getState()).toMatchObject({ status: "anonymous", isLoading: false, isAuthenticated: false, isGuest: false });
    expect(api.me).not.toHaveBeenCalled();
  });

  it("becomes authenticated from a stored token via GET /auth/me", async () => {
    stores.session.setItem(storageKeys.token, "t");
    const { store, api } = setup();
    await store.getState().init();
    expect(api.me).toHaveBeenCalledOnce();
    expect(store.getState()).toMatchObject({ status: "authenticated", isAuthenticated: true, user });
  });

  it("clears every token when GET /auth/me fails, then falls back to the guest session", async () => {
    stores.local.setItem(storageKeys.token, "stale");
    stores.local.setItem(storageKeys.firebaseToken, "stale-fb");
    stores.session.setItem(storageKeys.guestSessionId, "guest-1700000000000-abcd1234efgh5678");
    const { store } = setup({ me: vi.fn(async () => Promise.reject(unauthorized())) });
    await store.getState().init();
    expect(stores.local.getItem(storageKeys.token)).toBeNull();
    expect(stores.local.getItem(storageKeys.firebaseToken)).toBeNull();
    expect(store.getState()).toMatchObject({ status: "guest", isGuest: true, guestSessionId: "guest-1700000000000-abcd1234efgh5678" });
  });

  it("is a guest when only a guest id is stored", async () => {
    stores.session.setItem(storageKeys.guestSessionId, "guest-1700000000000-abcd1234efgh5678");
    const { store } = setup();
    await store.getState().init();
    expect(store.getState()).toMatchObject({ status: "guest", isGuest: true, isAuthenticated: false });
  });

  it("does not let a slow init overwrite a login that finished first", async () => {
    stores.local.setItem(storageKeys.token, "old");
    let finishMe: (u: User) => void = () => {};
    const me = vi.fn(() => new Promise<User>((resolve) => (finishMe = resolve)));
    const { store } = setup({ me });
    const init = store.getState().init();
    const other = { ...user, id: "u2", firstName: "Grace" };
    await store.getState().login({ email: "g@example.com", password: "pw" });
    store.setState({ user: other });
    finishMe(user);
    await init;
    expect(store.getState().user).toEqual(other);
  });
});

describe("auth store: login", () => {
  it("stores the token in local storage with 'Remember me' (default) and clears the guest session", async () => {
    stores.session.setItem(storageKeys.guestSessionId, "guest-1700000000000-abcd1234efgh5678");
    const { store } = setup();
    store.getState().startGuest();
    await store.getState().login({ email: "ada@example.com", password: "pw" });
    expect(stores.local.getItem(storageKeys.token)).toBe("t-login");
    expect(stores.session.getItem(storageKeys.guestSessionId)).toBeNull();
    expect(store.getState()).toMatchObject({ status: "authenticated", isGuest: false, guestSessionId: null, user });
  });

  it("stores the token in session storage without 'Remember me'", async () => {
    const { store } = setup();
    await store.getState().login({ email: "ada@example.com", password: "pw" }, false);
    expect(stores.session.getItem(storageKeys.token)).toBe("t-login");
    expect(stores.local.getItem(storageKeys.token)).toBeNull();
  });

  it("fails with 'No token received' when the response has no token", async () => {
    const { store } = setup({ login: vi.fn(async () => ({ user })) });
    const err = await store.getState().login({ email: "a@b.co", password: "pw" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionError);
    expect((err as Error).message).toBe(accountMessages.noTokenReceived);
    expect(store.getState()).toMatchObject({ error: accountMessages.noTokenReceived, isAuthenticated: false });
  });

  it("shows the server's error, else 'Login failed'", async () => {
    const { store } = setup({ login: vi.fn(async () => Promise.reject(unauthorized())) });
    await expect(store.getState().login({ email: "a@b.co", password: "x" })).rejects.toThrow("Please sign in to continue.");
    const { store: s2 } = setup({ login: vi.fn(async () => Promise.reject(new Error("weird"))) });
    await expect(s2.getState().login({ email: "a@b.co", password: "x" })).rejects.toThrow(accountMessages.loginFailed);
  });

  it("passes the server's field errors to the form", async () => {
    const invalid = new ApiError({
      message: "Some fields are invalid.",
      status: 400,
      code: "VALIDATION_ERROR",
      fields: { email: "Enter a valid email address." },
      fromServer: true,
    });
    const { store } = setup({ register: vi.fn(async () => Promise.reject(invalid)) });
    const err = (await store
      .getState()
      .register({ email: "x", password: "p", firstName: "A", lastName: "", phone: "", birthDate: "" })
      .catch((e: unknown) => e)) as ActionError;
    expect(err.message).toBe("Some fields are invalid.");
    expect(err.fields).toEqual({ email: "Enter a valid email address." });
  });
});

describe("auth store: guest", () => {
  it("startGuest creates guest-{timestamp}-{random} in session storage", () => {
    const { store } = setup();
    const id = store.getState().startGuest();
    expect(id).toMatch(/^guest-\d+-[a-z0-9]+$/);
    expect(stores.session.getItem(storageKeys.guestSessionId)).toBe(id);
    expect(store.getState()).toMatchObject({ status: "guest", isGuest: true, guestSessionId: id });
  });

  it("endGuest clears the guest id and re-checks for a stored token", async () => {
    const { store } = setup();
    store.getState().startGuest();
    stores.local.setItem(storageKeys.token, "t");
    await store.getState().endGuest();
    expect(stores.session.getItem(storageKeys.guestSessionId)).toBeNull();
    expect(store.getState().status).toBe("authenticated");
  });
});

describe("auth store: logout", () => {
  it("signs out of the provider, calls the server, clears tokens and goes to /login", async () => {
    stores.local.setItem(storageKeys.token, "t");
    stores.session.setItem(`${storageKeys.draftPrefix}new`, "half a question");
    const { store, api, navigate, deps } = setup();
    await store.getState().init();
    await store.getState().logout();
    expect(deps.google.signOut).toHaveBeenCalled();
    expect(api.logout).toHaveBeenCalled();
    expect(stores.local.getItem(storageKeys.token)).toBeNull();
    // The next person at this browser does not find the unsent text.
    expect(stores.session.getItem(`${storageKeys.draftPrefix}new`)).toBeNull();
    expect(store.getState()).toMatchObject({ status: "anonymous", isAuthenticated: false, user: null });
    expect(navigate).toHaveBeenCalledWith("/login");
  });

  it("ignores a failing server logout", async () => {
    stores.local.setItem(storageKeys.token, "t");
    const { store, navigate } = setup({ logout: vi.fn(async () => Promise.reject(new Error("down"))) });
    await store.getState().logout();
    expect(stores.local.getItem(storageKeys.token)).toBeNull();
    expect(navigate).toHaveBeenCalledWith("/login");
  });
});

describe("auth store: Google sign-in", () => {
  it("syncs the popup's payload with POST /auth/google-callback and stores the Tala token", async () => {
    const { store, api } = setup();
    await store.getState().signInWithGoogle();
    expect(api.googleCallback).toHaveBeenCalledWith({
      idToken: "id",
      uid: "g1",
      email: "ada@example.com",
      displayName: "Ada",
      photoURL: null,
    });
    expect(stores.local.getItem(storageKeys.token)).toBe("t-google");
    expect(store.getState()).toMatchObject({ status: "authenticated", firebaseUser: { uid: "g1" } });
  });

  it.each(["auth/popup-closed-by-user", "auth/popup-blocked", "auth/cancelled-popup-request"])(
    "maps %s to the popup-blocked message",
    async (code) => {
      const { store } = setup({}, { signIn: vi.fn(async () => Promise.reject(Object.assign(new Error("x"), { code }))) });
      await expect(store.getState().signInWithGoogle()).rejects.toThrow(accountMessages.popupBlocked);
    },
  );

  it("ignores a popup superseded by a newer one", async () => {
    const { store } = setup({}, { signIn: vi.fn(async () => Promise.reject(new SupersededPopupError())) });
    await expect(store.getState().signInWithGoogle()).resolves.toBeNull();
    expect(store.getState().error).toBeNull();
  });

  it("shows the server's error, else 'Google authentication failed'", async () => {
    const { store } = setup({ googleCallback: vi.fn(async () => Promise.reject(new ApiError({ message: "Not verified", status: 401, code: "UNAUTHORIZED", fromServer: true }))) });
    await expect(store.getState().signInWithGoogle()).rejects.toThrow("Not verified");
    const { store: s2 } = setup({ config: vi.fn(async () => ({ environment: "local", firebase: null })) });
    await expect(s2.getState().signInWithGoogle()).rejects.toThrow(accountMessages.googleAuthFailed);
  });
});

describe("auth store: listening to the provider's user (spec section 4)", () => {
  const googleUser = {
    payload: { idToken: "fresh-id", uid: "g1", email: "ada@example.com", displayName: "Ada", photoURL: null },
    user: { uid: "g1", email: "ada@example.com", displayName: "Ada", photoURL: null },
  };

  it("marks a Google sign-in where the token is kept, and passes Remember me to the provider", async () => {
    const { store, deps } = setup();
    await store.getState().signInWithGoogle(false);
    expect(deps.google.signIn).toHaveBeenCalledWith(expect.anything(), false);
    expect(stores.session.getItem(storageKeys.googleSession)).toBe("1");
    expect(stores.local.getItem(storageKeys.googleSession)).toBeNull();
  });

  it("never loads the provider at start without a Google sign-in", async () => {
    const { store, deps } = setup();
    await store.getState().init();
    expect(deps.google.watch).not.toHaveBeenCalled();
  });

  it("syncs the user the provider reports, with its refreshed token, instead of asking /auth/me", async () => {
    stores.local.setItem(storageKeys.googleSession, "1");
    stores.local.setItem(storageKeys.token, "old");
    const { store, api } = setup({}, { watch: vi.fn(async (_c, onUser) => (onUser(googleUser), () => undefined)) });
    await store.getState().init();
    expect(api.googleCallback).toHaveBeenCalledWith(googleUser.payload);
    expect(api.me).not.toHaveBeenCalled();
    expect(stores.local.getItem(storageKeys.token)).toBe("t-google");
    expect(stores.local.getItem(storageKeys.googleSession)).toBe("1");
    expect(store.getState()).toMatchObject({ status: "authenticated", firebaseUser: { uid: "g1" } });
  });

  it("falls back to the stored token when the provider reports no user, and forgets the mark", async () => {
    stores.local.setItem(storageKeys.googleSession, "1");
    stores.local.setItem(storageKeys.token, "t");
    const { store, api } = setup();
    await store.getState().init();
    expect(api.googleCallback).not.toHaveBeenCalled();
    expect(api.me).toHaveBeenCalled();
    expect(store.getState()).toMatchObject({ status: "authenticated", firebaseUser: null });
  });

  it("is a guest (no provider user, no token) when a guest id exists", async () => {
    stores.session.setItem(storageKeys.googleSession, "1");
    stores.session.setItem(storageKeys.guestSessionId, "guest-1-abc");
    const { store } = setup();
    await store.getState().init();
    expect(store.getState()).toMatchObject({ status: "guest", isGuest: true });
  });

  it("goes on with the stored token when the sync with the server fails", async () => {
    stores.local.setItem(storageKeys.googleSession, "1");
    stores.local.setItem(storageKeys.token, "t");
    const { store, api } = setup(
      { googleCallback: vi.fn(async () => Promise.reject(unauthorized())) },
      { watch: vi.fn(async (_c, onUser) => (onUser(googleUser), () => undefined)) },
    );
    await store.getState().init();
    expect(api.me).toHaveBeenCalled();
    expect(store.getState().status).toBe("authenticated");
  });

  it("logout forgets the mark", async () => {
    const { store } = setup();
    await store.getState().signInWithGoogle();
    expect(stores.local.getItem(storageKeys.googleSession)).toBe("1");
    await store.getState().logout();
    expect(stores.local.getItem(storageKeys.googleSession)).toBeNull();
  });
});

describe("auth store: token refresh", () => {
  it("replaceToken keeps the token where the old one was", () => {
    stores.session.setItem(storageKeys.token, "old");
    const { store } = setup();
    store.getState().replaceToken("new");
    expect(stores.session.getItem(storageKeys.token)).toBe("new");
    expect(stores.local.getItem(storageKeys.token)).toBeNull();
  });
});

describe("auth store: a session refused mid-way", () => {
  it("sessionEnded forgets the credential and becomes anonymous (the guard then goes to sign in); drafts stay", async () => {
    stores.local.setItem(storageKeys.token, "t");
    stores.session.setItem(`${storageKeys.draftPrefix}c1`, "half a question");
    const { store, api, navigate } = setup();
    await store.getState().init();
    store.getState().sessionEnded();
    expect(stores.local.getItem(storageKeys.token)).toBeNull();
    expect(store.getState()).toMatchObject({ status: "anonymous", user: null });
    expect(api.logout).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
    expect(stores.session.getItem(`${storageKeys.draftPrefix}c1`)).toBe("half a question");
  });

  it("sessionEnded does nothing unless signed in (a stale token found at start is handled by init)", () => {
    stores.session.setItem("guestSessionId", "guest-1-abcdefghijklmnop");
    const { store } = setup();
    store.getState().sessionEnded();
    expect(store.getState().status).toBe("loading");
  });
});

describe("auth store: account deletion", () => {
  it("reauthenticateWithGoogle returns a fresh ID token without signing in again", async () => {
    stores.local.setItem(storageKeys.token, "t");
    const { store, api } = setup();
    await store.getState().init();
    await expect(store.getState().reauthenticateWithGoogle()).resolves.toBe("id");
    expect(api.googleCallback).not.toHaveBeenCalled();
    expect(stores.local.getItem(storageKeys.token)).toBe("t");
  });

  it("reauthenticateWithGoogle: a closed popup says so; a superseded one gives null", async () => {
    const closed = Object.assign(new Error("closed"), { code: "auth/popup-closed-by-user" });
    const { store } = setup({}, { signIn: vi.fn(async () => Promise.reject(closed)) });
    await expect(store.getState().reauthenticateWithGoogle()).rejects.toThrow(accountMessages.popupBlocked);
    const { store: s2 } = setup({}, { signIn: vi.fn(async () => Promise.reject(new SupersededPopupError())) });
    await expect(s2.getState().reauthenticateWithGoogle()).resolves.toBeNull();
  });

  it("forgetDeletedAccount clears tokens and goes to /login without calling the server", async () => {
    stores.local.setItem(storageKeys.token, "t");
    const { store, api, navigate, deps } = setup();
    await store.getState().init();
    await store.getState().forgetDeletedAccount();
    expect(api.logout).not.toHaveBeenCalled();
    expect(deps.google.signOut).toHaveBeenCalled();
    expect(stores.local.getItem(storageKeys.token)).toBeNull();
    expect(store.getState()).toMatchObject({ status: "anonymous", isAuthenticated: false, user: null });
    expect(navigate).toHaveBeenCalledWith("/login");
  });
});
