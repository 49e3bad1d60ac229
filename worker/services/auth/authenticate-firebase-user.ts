import { serverMessages, type User } from "../../../contract";
import { AppError, unauthorized } from "../../http/errors";
import type { ServiceContext } from "../context";
import { findUser } from "./find-user";
import { toUser } from "./to-user";
import { verifyFirebaseToken } from "./verify-firebase-token";

/**
 * Resolves `Authorization: Bearer <Firebase ID token>` to the Tala account linked to that uid.
 * A valid token whose uid has no account yet (google-callback never ran) is a 401 like any other
 * unusable credential, as is any request when Firebase is not configured.
 */
export async function authenticateFirebaseUser({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { idToken: string };
}): Promise<{ user: User; authTime: number }> {
  const projectId = ctx.env.FIREBASE_PROJECT_ID;
  if (!projectId) throw unauthorized(serverMessages.sessionExpired);
  let uid: string;
  let authTime: number;
  try {
    ({ uid, authTime } = await verifyFirebaseToken({ env: ctx.env, input: { idToken: input.idToken, projectId } }));
  } catch (error) {
    // Expired ID tokens are routine (they last an hour): the client refreshes on sessionExpired.
    if (error instanceof AppError && error.code === "UNAUTHORIZED") throw unauthorized(serverMessages.sessionExpired);
    throw error;
  }
  const user = await findUser({ ctx, input: { firebaseUid: uid } });
  if (!user) throw unauthorized(serverMessages.sessionExpired);
  return { user: toUser(user), authTime };
}
