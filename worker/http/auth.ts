import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { chatGuestSessionHeader, chatMessages, guestSession, serverMessages, userRoomId, type User } from "../../contract";
import { authenticateFirebaseUser } from "../services/auth/authenticate-firebase-user";
import { authenticateToken } from "../services/auth/authenticate-token";
import type { AppEnv, Variables } from "./context";
import { unauthorized } from "./errors";
import { serviceContext } from "./service-context";

export type PresentedCredential = { scheme: "token"; value: string } | { scheme: "bearer"; value: string };

/**
 * Reads `Authorization: Token <t>` (Tala's own token) or `Authorization: Bearer <idToken>`
 * (a Firebase ID token). Null when the header is absent, empty, or uses another scheme.
 */
export function presentedCredential(c: Context<AppEnv>): PresentedCredential | null {
  const match = /^(Token|Bearer)\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
  if (!match) return null;
  return { scheme: match[1]!.toLowerCase() === "token" ? "token" : "bearer", value: match[2]! };
}

/** Authenticates the presented credential and sets `c.var.user` and `c.var.credential`; returns the user. */
async function signIn(c: Context<AppEnv>, credential: PresentedCredential): Promise<User> {
  const ctx = serviceContext(c);
  if (credential.scheme === "token") {
    const { user, tokenId } = await authenticateToken({ ctx, input: { token: credential.value } });
    c.set("user", user);
    c.set("credential", { kind: "token", tokenId } satisfies Variables["credential"]);
    return user;
  }
  const { user, authTime } = await authenticateFirebaseUser({ ctx, input: { idToken: credential.value } });
  c.set("user", user);
  c.set("credential", { kind: "firebase", authTime } satisfies Variables["credential"]);
  return user;
}

/**
 * Requires a signed-in user and sets `c.var.user` and `c.var.credential`.
 * No credential → 401 authRequired; an unknown, revoked or expired one → 401 sessionExpired.
 */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const credential = presentedCredential(c);
  if (!credential) throw unauthorized(serverMessages.authRequired);
  await signIn(c, credential);
  await next();
});

/**
 * For routes open to guests: with no credential the request goes on anonymous (read the user
 * with `currentUser(c)`). A credential that is presented but unusable is still a 401, so a client
 * holding a stale token learns to drop it instead of silently acting as a guest.
 */
export const optionalUser = createMiddleware<AppEnv>(async (c, next) => {
  const credential = presentedCredential(c);
  if (credential) await signIn(c, credential);
  await next();
});

/** The signed-in user behind `optionalUser`, or null for an anonymous request. */
export const currentUser = (c: Context<AppEnv>): User | null => (c.get("user") as User | undefined) ?? null;

/**
 * /api/chats: the chats of a signed-in user (their credential, as `requireUser`) or of a guest (the
 * `X-Guest-Session-Id` header: the guest id is their credential, as on their socket). Sets
 * `c.var.chatRoomId`, the one room the call may read. A credential wins over a guest id.
 */
export const requireChatOwner = createMiddleware<AppEnv>(async (c, next) => {
  const credential = presentedCredential(c);
  if (credential) {
    c.set("chatRoomId", userRoomId((await signIn(c, credential)).id));
  } else {
    const guestId = c.req.header(chatGuestSessionHeader);
    if (!guestId) throw unauthorized(serverMessages.authRequired);
    if (!guestSession.idPattern.test(guestId)) throw unauthorized(chatMessages.guestIdInvalid);
    c.set("chatRoomId", guestId);
  }
  await next();
});
