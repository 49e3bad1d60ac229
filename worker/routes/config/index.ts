import { Hono } from "hono";
import type { ClientConfig } from "../../../contract";
import type { Env } from "../../env";
import type { AppEnv } from "../../http/context";

/**
 * The Firebase web config the dashboard signs in with, or null when Google sign-in is off: both
 * the project id and the API key are needed for the client SDK to sign in. The dashboard shell's
 * CSP admits Firebase's hosts only when this is set (worker/static.ts).
 */
export function firebaseWebConfig(env: Env): ClientConfig["firebase"] {
  const { FIREBASE_PROJECT_ID: projectId, FIREBASE_API_KEY: apiKey, FIREBASE_AUTH_DOMAIN } = env;
  return projectId && apiKey ? { apiKey, authDomain: FIREBASE_AUTH_DOMAIN || `${projectId}.firebaseapp.com`, projectId } : null;
}

/** GET /api/config: public settings the dashboard needs before sign-in (Firebase web config). */
export function configRoutes() {
  return new Hono<AppEnv>().get("/config", (c) => {
    const body: ClientConfig = { environment: c.env.ENVIRONMENT, firebase: firebaseWebConfig(c.env) };
    return c.json(body);
  });
}
