import { Hono } from "hono";
import { loginBody, registerBody, serverMessages, updateProfileBody } from "../../../contract";
import { presentedCredential, requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { throttle } from "../../http/throttle";
import { jsonBody } from "../../http/validate";
import { clientIp } from "../../http/client-ip";
import { reserveLoginAttempt } from "../../services/throttle/login-attempts";
import { loginUser } from "../../services/auth/login-user";
import { registerUser } from "../../services/auth/register-user";
import { revokeToken } from "../../services/auth/revoke-tokens";
import { updateProfile } from "../../services/auth/update-profile";

/** Registration, sign-in, sign-out and the signed-in user's profile. */
export const sessionRoutes = new Hono<AppEnv>()
  .post("/register", jsonBody(registerBody), async (c) => {
    const input = c.req.valid("json");
    await throttle(c, "register", "register");
    const result = await registerUser({ ctx: serviceContext(c), input: { ...input, userAgent: c.req.header("user-agent") } });
    return c.json(result, 201);
  })

  // Only failed sign-ins count (see reserveLoginAttempt): a wrong password throws and keeps its
  // slot; a right one gives it back.
  .post("/login", jsonBody(loginBody), async (c) => {
    const input = c.req.valid("json");
    const ctx = serviceContext(c);
    const attempt = await reserveLoginAttempt({ ctx, input: { email: input.email, ip: clientIp(c) } });
    const result = await loginUser({ ctx, input: { ...input, userAgent: c.req.header("user-agent") } });
    await attempt.succeeded();
    return c.json(result);
  })

  // Always 200: signing out must succeed for the client even with a stale or absent token.
  // A Firebase ID token cannot be revoked here; the client signs out of Firebase itself.
  .post("/logout", async (c) => {
    const credential = presentedCredential(c);
    if (credential?.scheme === "token") await revokeToken({ ctx: serviceContext(c), input: { token: credential.value } });
    return c.json({ message: serverMessages.signedOut });
  })

  .get("/me", requireUser, (c) => c.json({ user: c.var.user }))

  .patch("/me", requireUser, jsonBody(updateProfileBody), async (c) => {
    const user = await updateProfile({ ctx: serviceContext(c), input: { userId: c.var.user.id, changes: c.req.valid("json") } });
    return c.json({ user });
  });
