/**
 * Google sign-in through Firebase's popup. The Firebase SDK is imported only here, dynamically,
 * when the user asks for it: pages that never offer Google never download it.
 */
import type { ClientConfig, GoogleCallbackBody } from "../../../contract";

export type FirebaseConfig = NonNullable<ClientConfig["firebase"]>;

/** The federated user as the auth store keeps it (spec section 3: firebaseUser). */
export interface FederatedUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
}

/** Firebase error codes meaning the popup never produced a result (spec: 'Popup blocked…'). */
const POPUP_FAILURE_CODES = new Set([
  "auth/popup-closed-by-user",
  "auth/popup-blocked",
  "auth/cancelled-popup-request",
  "auth/user-cancelled",
]);

export function isPopupFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && POPUP_FAILURE_CODES.has(code);
}

/** Thrown for a popup that a newer popup request replaced: the caller ignores it. */
export class SupersededPopupError extends Error {
  override name = "SupersededPopupError";
}

const APP_NAME = "tala";
let latestRequest = 0;
/** Whether the provider's SDK was loaded in this page (else there is no provider session to end). */
let sdkLoaded = false;

async function loadAuth(config: FirebaseConfig) {
  const [{ initializeApp, getApps }, authModule] = await Promise.all([import("firebase/app"), import("firebase/auth")]);
  const app = getApps().find((a) => a.name === APP_NAME) ?? initializeApp(config, APP_NAME);
  sdkLoaded = true;
  return { authModule, auth: authModule.getAuth(app) };
}

/**
 * Opens the Google account chooser (always: prompt=select_account) and returns the sync payload
 * for POST /auth/google-callback. Starting a new popup cancels an earlier pending one; the earlier
 * call then rejects with SupersededPopupError.
 */
export async function signInWithGooglePopup(
  config: FirebaseConfig,
  remember = true,
): Promise<{ payload: GoogleCallbackBody; user: FederatedUser }> {
  const request = ++latestRequest;
  const { authModule, auth } = await loadAuth(config);
  const provider = new authModule.GoogleAuthProvider();
  provider.setCustomParameters({ prompt: "select_account" });
  try {
    // The provider keeps its user as long as Tala keeps its token: across restarts only with "Remember me".
    await authModule.setPersistence(auth, remember ? authModule.browserLocalPersistence : authModule.browserSessionPersistence);
    const result = await authModule.signInWithPopup(auth, provider);
    if (request !== latestRequest) throw new SupersededPopupError();
    return await syncPayload(result.user);
  } catch (err) {
    if (request !== latestRequest) throw new SupersededPopupError();
    throw err;
  }
}

type ProviderUser = Awaited<ReturnType<typeof loadAuth>>["auth"]["currentUser"] & object;

/** The sync payload of a provider user, with its ID token refreshed (spec section 9: "forced on user refresh"). */
async function syncPayload(u: ProviderUser): Promise<{ payload: GoogleCallbackBody; user: FederatedUser }> {
  const idToken = await u.getIdToken(true);
  const user: FederatedUser = { uid: u.uid, email: u.email, displayName: u.displayName, photoURL: u.photoURL };
  return { payload: { idToken, ...user, email: u.email ?? undefined }, user };
}

/**
 * Listens for the provider's user (spec section 4: "when the federated provider reports a
 * user…"): `onUser` gets the sync payload, its token refreshed, each time the provider reports a
 * user, and null when it reports none. A user whose token cannot be refreshed counts as none.
 * Resolves to the function that stops listening.
 */
export async function watchGoogleUser(
  config: FirebaseConfig,
  onUser: (signedIn: { payload: GoogleCallbackBody; user: FederatedUser } | null) => void,
): Promise<() => void> {
  const { authModule, auth } = await loadAuth(config);
  return authModule.onAuthStateChanged(auth, (u) => {
    if (!u) return onUser(null);
    syncPayload(u).then(onUser, () => onUser(null));
  });
}

/** Signs out of Firebase if its SDK was ever loaded; otherwise there is no provider session. */
export async function signOutOfGoogle(): Promise<void> {
  if (!sdkLoaded) return;
  try {
    const [{ getApps }, { getAuth, signOut }] = await Promise.all([import("firebase/app"), import("firebase/auth")]);
    const app = getApps().find((a) => a.name === APP_NAME);
    if (app) await signOut(getAuth(app));
  } catch {
    // The provider session is not ours to keep: failing to end it must not block logout.
  }
}
