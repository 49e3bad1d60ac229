/**
 * Browser storage the dashboard relies on: credentials, the guest session id, the remembered
 * return location. Every access is guarded because storage throws in some privacy modes and does
 * not exist outside a browser (unit tests install an in-memory Storage on globalThis).
 */
import { auth, storageKeys } from "../../../contract";

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

/** Removes every stored credential (token and federated token) from both areas. */
export function clearTokens(): void {
  for (const area of ["local", "session"] as const) {
    removeItem(area, storageKeys.token);
    removeItem(area, storageKeys.firebaseToken);
  }
}

/** A new guest session id of the spec's form `guest-{timestamp}-{random}`. */
export function newGuestSessionId(now: number = Date.now(), random: () => number = Math.random): string {
  return `${auth.guestSessionPrefix}${now}-${random().toString(36).slice(2, 11)}`;
}

export function readGuestSessionId(): string | null {
  return readItem("session", storageKeys.guestSessionId);
}

export function writeGuestSessionId(id: string): void {
  writeItem("session", storageKeys.guestSessionId, id);
}

export function clearGuestSessionId(): void {
  removeItem("session", storageKeys.guestSessionId);
}
