/**
 * The location a signed-out user was heading to when the access guard sent them to /login
 * (spec section 2: "the origin location is remembered"). Kept in session storage and in the
 * login URL's ?returnTo, so it survives a reload and the register → verify-email detour.
 */
import { appRoutes, publicRoutes, storageKeys } from "../../../contract";
import { safeReturnTo } from "./format";
import { readItem, removeItem, writeItem } from "./storage";

export function rememberReturnTo(location: string): void {
  const safe = safeReturnTo(location);
  if (safe) writeItem("session", storageKeys.returnTo, safe);
}

/** The login URL that brings the user back to `location` afterwards. */
export function loginUrlFor(location: string): string {
  const safe = safeReturnTo(location);
  return safe ? `${publicRoutes.login}?returnTo=${encodeURIComponent(safe)}` : publicRoutes.login;
}

/** Where to go after signing in: ?returnTo, else the remembered location, else the chat. */
export function returnTarget(search: string = globalThis.location?.search ?? ""): string {
  const fromQuery = safeReturnTo(new URLSearchParams(search).get("returnTo"));
  return fromQuery ?? safeReturnTo(readItem("session", storageKeys.returnTo)) ?? appRoutes.newChat;
}

/** Reads and forgets the remembered location. */
export function takeReturnTarget(search?: string): string {
  const target = returnTarget(search);
  removeItem("session", storageKeys.returnTo);
  return target;
}
