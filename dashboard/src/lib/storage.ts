/**
 * Browser storage the dashboard relies on: credentials, the guest session id, the remembered
 * return location. Every access is guarded because storage throws in some privacy modes and does
 * not exist outside a browser (unit tests install an in-memory Storage on globalThis).
 */
import { auth, guestSession, storageKeys } from "../../../contract";

export type StorageArea = "local" | "session";

/** The Storage object of an area, or null when the browser refuses it. */
export function storageArea(area: StorageArea): Storage | null {
  try {
    const s = area === "local" ? globalThis.localStorage : globalThis.sessionStorage;
    return s ?? null;
  } catch {
    return null;
  }
}

export function readItem(area: StorageArea, key: string): string | null {
  try {
    return storageArea(area)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(area: StorageArea, key: string, value: string): void {
  try {
    storageArea(area)?.setItem(key, value);
  } catch {
    // Quota or privacy mode: the value simply is not kept.
  }
}

export function removeItem(area: StorageArea, key: string): void {
  try {
    storageArea(area)?.removeItem(key);
  } catch {
    // Nothing to clean up if storage is unavailable.
  }
}

/** First non-empty value of `key`, looked up in local then session storage (spec section 7). */
export function readLocalThenSession(key: string): string | null {
  return readItem("local", key) || readItem("session", key) || null;
}

/** The product's own token, and where it was found (a refreshed token goes back to the same place). */
export function readToken(): { token: string; area: StorageArea } | null {
  const local = readItem("local", storageKeys.token);
  if (local) return { token: local, area: "local" };
  const session = readItem("session", storageKeys.token);
  if (session) return { token: session, area: "session" };
  return null;
}

/** Stores the product's token: local storage when "Remember me" is on, session storage otherwise. */
export function writeToken(token: string, remember: boolean): void {
  clearTokens();
  writeItem(remember ? "local" : "session", storageKeys.token, token);
}

/** Removes every stored credential (token, federated token, the Google-session mark) from both areas. */
export function clearTokens(): void {
  for (const area of ["local", "session"] as const) {
    removeItem(area, storageKeys.token);
    removeItem(area, storageKeys.firebaseToken);
    removeItem(area, storageKeys.googleSession);
  }
}

/** Marks that the stored token came from a Google sign-in, where the token is kept ("Remember me"). */
export function writeGoogleSession(remember: boolean): void {
  writeItem(remember ? "local" : "session", storageKeys.googleSession, "1");
}

/** Where the Google-session mark is kept, or null when the last sign-in was not with Google. */
export function readGoogleSession(): StorageArea | null {
  if (readItem("local", storageKeys.googleSession)) return "local";
  if (readItem("session", storageKeys.googleSession)) return "session";
  return null;
}

/** The composer's unsent text for a chat (`"new"` for a new chat), kept in this tab's session storage. */
export const draftStorageKey = (chatKey: string) => `${storageKeys.draftPrefix}${chatKey}`;

/** Forgets every unsent draft of this tab (signing out: the next user must not see them). */
export function clearDrafts(): void {
  const session = storageArea("session");
  if (!session) return;
  try {
    const keys = Array.from({ length: session.length }, (_, i) => session.key(i)).filter((k): k is string => !!k?.startsWith(storageKeys.draftPrefix));
    for (const key of keys) session.removeItem(key);
  } catch {
    // Storage refused: nothing was kept.
  }
}

const GUEST_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A new guest session id of the spec's form `guest-{timestamp}-{random}`. The id is the guest's
 * only credential: its random part is `guestSession.randomChars` characters from the browser's
 * CSPRNG, unbiased (bytes past the last whole multiple of the alphabet are drawn again).
 */
export function newGuestSessionId(
  now: number = Date.now(),
  fill: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes),
): string {
  const size = GUEST_ID_ALPHABET.length;
  const ceiling = 256 - (256 % size);
  let random = "";
  while (random.length < guestSession.randomChars) {
    for (const byte of fill(new Uint8Array(guestSession.randomChars * 2))) {
      if (byte < ceiling && random.length < guestSession.randomChars) random += GUEST_ID_ALPHABET[byte % size];
    }
  }
  return `${auth.guestSessionPrefix}${now}-${random}`;
}

/**
 * The stored guest id, if it is still one the server accepts. An id from an older dashboard
 * (a shorter random part) is replaced by a new one here, so the guest carries on with a fresh
 * session instead of being refused: the server would never accept the old id again.
 */
export function readGuestSessionId(): string | null {
  const stored = readItem("session", storageKeys.guestSessionId);
  if (stored === null || guestSession.idPattern.test(stored)) return stored;
  const fresh = newGuestSessionId();
  writeGuestSessionId(fresh);
  return fresh;
}

export function writeGuestSessionId(id: string): void {
  writeItem("session", storageKeys.guestSessionId, id);
}

export function clearGuestSessionId(): void {
  removeItem("session", storageKeys.guestSessionId);
}
