import { Hono } from "hono";
import type { ClientConfig } from "../../../contract";
import type { AppEnv } from "../../http/context";

/** GET /api/config: public settings the dashboard needs before sign-in (Firebase web config). */
export function configRoutes() {
  return new Hono<AppEnv>().get("/config", (c) => {
    const { FIREBASE_PROJECT_ID: projectId, FIREBASE_API_KEY: apiKey, FIREBASE_AUTH_DOMAIN, ENVIRONMENT } = c.env;
    // Both are needed for the client SDK to sign in; with either missing, Google sign-in is hidden.
    const firebase =
      projectId && apiKey ? { apiKey, authDomain: FIREBASE_AUTH_DOMAIN || `${projectId}.firebaseapp.com`, projectId } : null;
    const body: ClientConfig = { environment: ENVIRONMENT, firebase };
    return c.json(body);
  });
}
