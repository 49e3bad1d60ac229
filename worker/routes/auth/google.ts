import { Hono } from "hono";
import { googleCallbackBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { jsonBody } from "../../http/validate";
import { signInWithFirebase } from "../../services/auth/sign-in-with-firebase";

/** Federated sign-in: the dashboard syncs a Firebase user and gets Tala's own token back. */
export const googleRoutes = new Hono<AppEnv>().post("/google-callback", jsonBody(googleCallbackBody), async (c) => {
  const { idToken, displayName, photoURL } = c.req.valid("json");
  const result = await signInWithFirebase({
    ctx: serviceContext(c),
    input: { idToken, displayName, photoURL, userAgent: c.req.header("user-agent") },
  });
  return c.json(result);
});
