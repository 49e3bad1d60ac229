import { eq } from "drizzle-orm";
import { serverMessages, type AuthResponse } from "../../../contract";
import { isUniqueViolation } from "../../db/client";
import { users } from "../../db/schema";
import { AppError, unauthorized } from "../../http/errors";
import type { ServiceContext } from "../context";
import { findUser } from "./find-user";
import { issueToken } from "./issue-token";
import { emailTaken } from "./register-user";
import { toUser, type UserRow } from "./to-user";
import { verifyFirebaseToken, type FirebaseIdentity } from "./verify-firebase-token";

export interface FirebaseSignInInput {
  idToken: string;
  /** From the client's sync payload: cosmetic only, used when the token carries no name/photo. */
  displayName?: string | null;
  photoURL?: string | null;
  userAgent?: string | null;
}

function splitName(displayName: string | null): { firstName: string; lastName: string } {
  const parts = (displayName ?? "").trim().split(/\s+/).filter(Boolean);
  return { firstName: (parts[0] ?? "").slice(0, 100), lastName: parts.slice(1).join(" ").slice(0, 100) };
}

/** An http(s) URL or null: a photo URL ends up in an <img src>, so nothing else is kept. */
function safePhotoUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.toString().slice(0, 2048) : null;
  } catch {
    return null;
  }
}

/**
 * Finds or creates the Tala account for a Firebase identity. Only the verified token is trusted
 * for identity (uid, e-mail, email_verified); the sync payload's uid and e-mail are ignored.
 * An existing account with the same address is linked only when Google vouches for the address,
 * otherwise anyone could claim it by creating a Firebase account with that unverified e-mail.
 */
async function findOrCreateUser(ctx: ServiceContext, identity: FirebaseIdentity, input: FirebaseSignInInput): Promise<UserRow> {
  const linked = await findUser({ ctx, input: { firebaseUid: identity.uid } });
  if (linked) return linked;
  if (!identity.email) throw unauthorized(serverMessages.invalidFederatedToken);
  const now = Date.now();
  const photoUrl = safePhotoUrl(identity.picture ?? input.photoURL);

  const sameEmail = await findUser({ ctx, input: { email: identity.email } });
  if (sameEmail) {
    if (!identity.emailVerified) throw emailTaken();
    const [row] = await ctx.db
      .update(users)
      .set({
        firebaseUid: identity.uid,
        emailVerifiedAt: sameEmail.emailVerifiedAt ?? now,
        photoUrl: sameEmail.photoUrl ?? photoUrl,
        updatedAt: now,
      })
      .where(eq(users.id, sameEmail.id))
      .returning();
    if (row) return row;
  }
  const [created] = await ctx.db
    .insert(users)
    .values({
      id: crypto.randomUUID(),
      email: identity.email,
      passwordHash: null,
      ...splitName(identity.name ?? input.displayName ?? null),
      photoUrl,
      firebaseUid: identity.uid,
      emailVerifiedAt: identity.emailVerified ? now : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!created) throw new Error("user insert returned no row");
  return created;
}

/** POST /auth/google-callback: verifies the ID token, then signs the account in with a Tala token. */
export async function signInWithFirebase({ ctx, input }: { ctx: ServiceContext; input: FirebaseSignInInput }): Promise<AuthResponse> {
  const projectId = ctx.env.FIREBASE_PROJECT_ID;
  if (!projectId) throw new AppError("SERVICE_UNAVAILABLE", serverMessages.federatedNotConfigured);
  const identity = await verifyFirebaseToken({ env: ctx.env, input: { idToken: input.idToken, projectId } });
  let user: UserRow;
  try {
    user = await findOrCreateUser(ctx, identity, input);
  } catch (error) {
    // Two first sign-ins of one identity at once: the loser of the unique index finds the winner's row.
    if (!isUniqueViolation(error)) throw error;
    const winner = await findUser({ ctx, input: { firebaseUid: identity.uid } });
    if (!winner) throw emailTaken();
    user = winner;
  }
  const token = await issueToken({ ctx, input: { userId: user.id, userAgent: input.userAgent } });
  return { token, user: toUser(user) };
}
