/**
 * Authentication state (spec section 4). States: loading → authenticated | guest | anonymous.
 *
 * - init: after a Google sign-in, the provider is listened to first: when it reports a user, its
 *   token is refreshed (forced) and synced with POST /auth/google-callback → authenticated. When it
 *   reports none (or there was no Google sign-in): a stored token → GET /auth/me (on failure every
 *   token is cleared) → authenticated; else a guest session id → guest; else anonymous. The token
 *   is checked before the guest id, unlike the spec: every call carries the stored token, so the
 *   session must be that account's (README, "Where Tala departs from the spec").
 * - Google's ID token is never stored (`firebaseToken`): it is exchanged for Tala's token once.
 * - login / register / Google sign-in store the returned token (local storage with "Remember me",
 *   session storage without) and clear any guest session.
 * - logout signs out of the provider, tells the server (failures ignored), clears the tokens and
 *   goes to /login.
 *
 * Dependencies are injected (createAuthStore) so the transitions are unit-tested without a browser.
 */
import { createStore, useStore } from "zustand";
import { navigate } from "wouter/use-browser-location";
import {
  accountMessages,
  publicRoutes,
  type ClientConfig,
  type LoginBody,
  type RegisterBody,
  type User,
} from "../../../contract";
import { accountApi, type AccountApi } from "../lib/account";
import { ActionError, ApiError, errorMessage, onSessionRefused, toActionError } from "../lib/api";
import {
  clearDrafts,
  clearGuestSessionId,
  clearTokens,
  newGuestSessionId,
  readGoogleSession,
  readGuestSessionId,
  readToken,
  writeGoogleSession,
  writeGuestSessionId,
  writeToken,
} from "../lib/storage";
import {
  SupersededPopupError,
  isPopupFailure,
  signInWithGooglePopup,
  signOutOfGoogle,
  watchGoogleUser,
  type FederatedUser,
  type FirebaseConfig,
} from "../lib/google-sign-in";

export type AuthStatus = "loading" | "authenticated" | "guest" | "anonymous";

/** How long logout waits for the server before signing out locally anyway (its failures are ignored). */
const LOGOUT_SERVER_WAIT_MS = 3000;

export interface AuthState {
  status: AuthStatus;
  isAuthenticated: boolean;
  isLoading: boolean;
  user: User | null;
  /** The last action's catalogue message, or null. */
  error: string | null;
  isGuest: boolean;
  guestSessionId: string | null;
  /** The federated-provider user of the last Google sign-in (spec section 3). */
  firebaseUser: FederatedUser | null;
  /** GET /api/config; undefined until loaded, null when it failed. */
  clientConfig: ClientConfig | null | undefined;

  init: () => Promise<void>;
  login: (body: LoginBody, remember?: boolean) => Promise<User>;
  register: (body: RegisterBody, remember?: boolean) => Promise<User>;
  /** Resolves to null when a newer popup superseded this one. */
  signInWithGoogle: (remember?: boolean) => Promise<User | null>;
  startGuest: () => string;
  /** Leaves the guest session and re-checks for a stored token (spec section 4). */
  endGuest: () => Promise<void>;
  logout: () => Promise<void>;
  /** A fresh Google sign-in for a sensitive action: its ID token, or null when a newer popup superseded it. */
  reauthenticateWithGoogle: () => Promise<string | null>;
  /**
   * The server refused the stored credential mid-session (a 401, a revoked socket): forget it
   * here; the access guard then sends the user to sign in, remembering where they were.
   */
  sessionEnded: () => void;
  /** The account was deleted (DELETE /auth/me): forget it here, without telling the server again. */
  forgetDeletedAccount: () => Promise<void>;
  /** Replaces the signed-in user (after a profile, e-mail or verification change). */
  setUser: (user: User) => void;
  /** Stores a fresh token (after a password change) where the old one was kept. */
  replaceToken: (token: string) => void;
  loadClientConfig: () => Promise<ClientConfig | null>;
  clearError: () => void;
}

export interface AuthDeps {
  api: AccountApi;
  navigate: (path: string) => void;
  google: {
    signIn: typeof signInWithGooglePopup;
    signOut: () => Promise<void>;
    watch: typeof watchGoogleUser;
  };
}

/** How long init waits for the provider's first report before going on without it (the API timeout, spec section 9). */
const PROVIDER_WAIT_MS = 10_000;

type Snapshot = Pick<AuthState, "status" | "isAuthenticated" | "isLoading" | "user" | "isGuest" | "guestSessionId" | "error">;

const loading = (): Snapshot => ({
  status: "loading",
  isAuthenticated: false,
  isLoading: true,
  user: null,
  isGuest: false,
  guestSessionId: null,
  error: null,
});
const authenticated = (user: User): Snapshot => ({
  status: "authenticated",
  isAuthenticated: true,
  isLoading: false,
  user,
  isGuest: false,
  guestSessionId: null,
  error: null,
});
const guest = (guestSessionId: string): Snapshot => ({
  status: "guest",
  isAuthenticated: false,
  isLoading: false,
  user: null,
  isGuest: true,
  guestSessionId,
  error: null,
});
const anonymous = (): Snapshot => ({
  status: "anonymous",
  isAuthenticated: false,
  isLoading: false,
  user: null,
  isGuest: false,
  guestSessionId: null,
  error: null,
});

export function createAuthStore(deps: AuthDeps) {
  const { api } = deps;
  /**
   * Bumped by every action that decides the session. A slow init (GET /auth/me with retries) must
   * not overwrite a login that finished meanwhile, so async steps check it before writing.
   */
  let generation = 0;
  let configRequest: Promise<ClientConfig | null> | null = null;

  return createStore<AuthState>()((set, get) => {
    /** Stores the token and becomes authenticated; the guest session ends (spec section 4). */
    const signedIn = (token: string, user: User, remember: boolean, extra: Partial<AuthState> = {}) => {
      generation++;
      writeToken(token, remember);
      clearGuestSessionId();
      set({ ...authenticated(user), ...extra });
      return user;
    };

    /** The no-token branch of init: guest if a guest id exists, else anonymous. */
    const settleWithoutToken = () => {
      const guestId = readGuestSessionId();
      set(guestId ? guest(guestId) : anonymous());
    };

    /** Resolves the session from storage (init, and after leaving a guest session). */
    const resolveStoredSession = async () => {
      const gen = ++generation;
      const stored = readToken();
      if (stored) {
        try {
          const user = await api.me();
          if (gen === generation) set(authenticated(user));
          return;
        } catch {
          if (gen !== generation) return;
          clearTokens();
        }
      }
      if (gen === generation) settleWithoutToken();
    };

    type ProviderReport = Awaited<ReturnType<typeof signInWithGooglePopup>> | null;
    /** The provider reported a user: sync it (POST /auth/google-callback) and become authenticated. */
    const syncProviderUser = async (signedInUser: NonNullable<ProviderReport>, remember: boolean) => {
      const res = await api.googleCallback(signedInUser.payload);
      signedIn(res.token, res.user, remember, { firebaseUser: signedInUser.user });
      writeGoogleSession(remember);
    };

    /**
     * Spec section 4: after a Google sign-in, the provider's user decides the session. Resolves
     * true when it reported a user that synced; false (and the mark is dropped) when it reported
     * none, failed or did not answer in time. Later reports of another user sign that user in.
     */
    const listenToProvider = async (area: "local" | "session", gen: number): Promise<boolean> => {
      const config = await get().loadClientConfig();
      if (!config?.firebase) return false;
      let settle: (report: ProviderReport) => void = () => undefined;
      const first = new Promise<ProviderReport>((resolve) => {
        settle = resolve;
        setTimeout(() => resolve(null), PROVIDER_WAIT_MS);
      });
      let reports = 0;
      try {
        await deps.google.watch(config.firebase as FirebaseConfig, (report) => {
          if (reports++ === 0) return settle(report);
          // A later report: another account signed in with the provider (another tab) is synced;
          // "no user" changes nothing here, the Tala token stays valid until logout.
          const current = get().firebaseUser;
          if (report && report.user.uid !== current?.uid && readGoogleSession()) void syncProviderUser(report, readGoogleSession() === "local").catch(() => undefined);
        });
      } catch {
        return false;
      }
      const report = await first;
      if (!report || gen !== generation) return false;
      try {
        await syncProviderUser(report, area === "local");
        return true;
      } catch {
        return false;
      }
    };

    return {
      ...loading(),
      firebaseUser: null,
      clientConfig: undefined,

      init: async () => {
        set(loading());
        const googleArea = readGoogleSession();
        if (googleArea) {
          const gen = generation;
          if (await listenToProvider(googleArea, gen)) return;
          if (gen !== generation) return;
        }
        await resolveStoredSession();
      },

      login: async (body, remember = true) => {
        set({ error: null });
        try {
          const res = await api.login(body);
          if (!res.token) throw new ActionError(accountMessages.noTokenReceived);
          if (res.user) return signedIn(res.token, res.user, remember);
          // A token without a user: store it, then ask who it belongs to.
          writeToken(res.token, remember);
          try {
            return signedIn(res.token, await api.me(), remember);
          } catch (err) {
            clearTokens();
            throw err;
          }
        } catch (err) {
          const e = toActionError(err, accountMessages.loginFailed);
          set({ error: e.message });
          throw e;
        }
      },

      register: async (body, remember = true) => {
        set({ error: null });
        try {
          const res = await api.register(body);
          return signedIn(res.token, res.user, remember);
        } catch (err) {
          const e = toActionError(err, accountMessages.registrationFailed);
          set({ error: e.message });
          throw e;
        }
      },

      signInWithGoogle: async (remember = true) => {
        set({ error: null });
        try {
          const config = await get().loadClientConfig();
          if (!config?.firebase) throw new ActionError(accountMessages.googleAuthFailed);
          const { payload, user: firebaseUser } = await deps.google.signIn(config.firebase as FirebaseConfig, remember);
          set({ firebaseUser });
          const res = await api.googleCallback(payload);
          const signedInUser = signedIn(res.token, res.user, remember, { firebaseUser });
          writeGoogleSession(remember);
          return signedInUser;
        } catch (err) {
          if (err instanceof SupersededPopupError) return null;
          // Spec section 8: popup closed/blocked/cancelled has its own message; otherwise the
          // error's message (the server's `error` for an API failure), else the fallback.
          let message: string;
          if (err instanceof ActionError) message = err.message;
          else if (isPopupFailure(err)) message = accountMessages.popupBlocked;
          else if (err instanceof ApiError) message = errorMessage(err, accountMessages.googleAuthFailed);
          else message = (err instanceof Error && err.message) || accountMessages.googleAuthFailed;
          set({ error: message });
          throw new ActionError(message);
        }
      },

      startGuest: () => {
        generation++;
        const id = readGuestSessionId() ?? newGuestSessionId();
        writeGuestSessionId(id);
        set(guest(id));
        return id;
      },

      endGuest: async () => {
        clearGuestSessionId();
        set(loading());
        await resolveStoredSession();
      },

      logout: async () => {
        generation++;
        await deps.google.signOut();
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), LOGOUT_SERVER_WAIT_MS);
        try {
          await api.logout(controller.signal);
        } catch {
          // Spec section 4: server logout failures are ignored.
        } finally {
          clearTimeout(timer);
        }
        clearTokens();
        clearDrafts();
        set({ ...anonymous(), firebaseUser: null });
        deps.navigate(publicRoutes.login);
      },

      reauthenticateWithGoogle: async () => {
        try {
          const config = await get().loadClientConfig();
          if (!config?.firebase) throw new ActionError(accountMessages.googleAuthFailed);
          const { payload } = await deps.google.signIn(config.firebase as FirebaseConfig);
          return payload.idToken;
        } catch (err) {
          if (err instanceof SupersededPopupError) return null;
          if (err instanceof ActionError) throw err;
          throw new ActionError(isPopupFailure(err) ? accountMessages.popupBlocked : accountMessages.googleAuthFailed);
        }
      },

      sessionEnded: () => {
        if (get().status !== "authenticated") return;
        generation++;
        clearTokens();
        void deps.google.signOut().catch(() => undefined);
        set({ ...anonymous(), firebaseUser: null });
      },

      forgetDeletedAccount: async () => {
        generation++;
        await deps.google.signOut().catch(() => undefined);
        clearTokens();
        clearDrafts();
        set({ ...anonymous(), firebaseUser: null });
        deps.navigate(publicRoutes.login);
      },

      setUser: (user) => {
        if (get().isAuthenticated) set({ user });
      },

      replaceToken: (token) => {
        const stored = readToken();
        writeToken(token, stored?.area !== "session");
      },

      loadClientConfig: () => {
        configRequest ??= api
          .config()
          .then((config) => {
            set({ clientConfig: config });
            return config;
          })
          .catch(() => {
            configRequest = null; // try again on the next page that needs it
            set({ clientConfig: null });
            return null;
          });
        return configRequest;
      },

      clearError: () => set({ error: null }),
    };
  });
}

export type AuthStore = ReturnType<typeof createAuthStore>;

export const authStore: AuthStore = createAuthStore({
  api: accountApi,
  navigate: (path) => navigate(path),
  google: { signIn: signInWithGooglePopup, signOut: signOutOfGoogle, watch: watchGoogleUser },
});
// A 401 to the stored credential anywhere in the dashboard ends the session here.
onSessionRefused(() => authStore.getState().sessionEnded());

export function useAuth<T>(selector: (s: AuthState) => T): T {
  return useStore(authStore, selector);
}
