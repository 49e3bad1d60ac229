import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { serverMessages } from "../../../contract";
import { isLocal, type Env } from "../../env";
import { AppError, unauthorized } from "../../http/errors";

/** Where Google publishes the keys that sign Firebase ID tokens. */
const GOOGLE_JWKS_URL = "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com";
/** Seconds of clock skew tolerated between Google and this worker. */
const CLOCK_SKEW_S = 5;

export interface FirebaseIdentity {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
  /** When the user last signed in with Google (seconds since the epoch): recent-login checks. */
  authTime: number;
}

// Module-level, so the key set (and jose's fetch cache for the remote one) survives across
// requests of one isolate instead of being refetched per sign-in.
let remoteKeys: JWTVerifyGetKey | undefined;
let localKeys: { source: string; keys: JWTVerifyGetKey } | undefined;

/**
 * Google's published keys, or FIREBASE_JWKS in local mode only: a test key set is a setting that
 * would let whoever wrote it sign in as anyone, so outside local mode it is ignored (never trusted
 * in production, even if set by mistake).
 */
function keySet(env: Pick<Env, "FIREBASE_JWKS" | "ENVIRONMENT">): JWTVerifyGetKey {
  if (env.FIREBASE_JWKS && isLocal(env)) {
    if (localKeys?.source !== env.FIREBASE_JWKS) {
      localKeys = { source: env.FIREBASE_JWKS, keys: createLocalJWKSet(JSON.parse(env.FIREBASE_JWKS) as JSONWebKeySet) };
    }
    return localKeys.keys;
  }
  remoteKeys ??= createRemoteJWKSet(new URL(GOOGLE_JWKS_URL));
  return remoteKeys;
}

const str = (value: unknown) => (typeof value === "string" && value.length > 0 ? value : null);

/**
 * Verifies a Firebase ID token as Firebase documents it: RS256 only, signed by one of Google's
 * published keys, issuer `https://securetoken.google.com/<project>`, audience the project, not
 * expired, issued and authenticated in the past, with a non-empty subject (the Firebase uid).
 * Any failure is 401 invalidFederatedToken; Google's keys being unreachable is a 503.
 * The caller checks that FIREBASE_PROJECT_ID is set.
 */
export async function verifyFirebaseToken({
  env,
  input,
}: {
  env: Pick<Env, "FIREBASE_JWKS" | "ENVIRONMENT">;
  input: { idToken: string; projectId: string };
}): Promise<FirebaseIdentity> {
  const invalidToken = () => unauthorized(serverMessages.invalidFederatedToken);
  let payload;
  try {
    ({ payload } = await jwtVerify(input.idToken, keySet(env), {
      algorithms: ["RS256"],
      issuer: `https://securetoken.google.com/${input.projectId}`,
      audience: input.projectId,
      requiredClaims: ["sub", "iat", "exp", "auth_time"],
      clockTolerance: CLOCK_SKEW_S,
    }));
  } catch (error) {
    if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
      console.error(JSON.stringify({ event: "firebase-keys-unavailable", error: String(error) }));
      throw new AppError("SERVICE_UNAVAILABLE", serverMessages.federatedUnavailable);
    }
    throw invalidToken();
  }
  const now = Math.floor(Date.now() / 1000);
  const sub = str(payload.sub);
  // jose checks iat only against a maximum age; Firebase also requires iat and auth_time in the past.
  if (!sub || sub.length > 128) throw invalidToken();
  if (typeof payload.iat !== "number" || payload.iat > now + CLOCK_SKEW_S) throw invalidToken();
  if (typeof payload.auth_time !== "number" || payload.auth_time > now + CLOCK_SKEW_S) throw invalidToken();
  const email = str(payload.email);
  return {
    uid: sub,
    email: email?.trim().toLowerCase() ?? null,
    emailVerified: payload.email_verified === true,
    name: str(payload.name),
    picture: str(payload.picture),
    authTime: payload.auth_time,
  };
}
