import { Hono } from "hono";
import { deleteAccountBody, serverMessages } from "../../../contract";
import { requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { throttle } from "../../http/throttle";
import { jsonBody } from "../../http/validate";
import { deleteAccount } from "../../services/auth/delete-account";

/**
 * DELETE /auth/me `{ password }`: deletes the signed-in account and all its data. An account with
 * no password (Google only) sends the request with a fresh Google ID token (`Bearer`) instead. Throttled like
 * sign-in, per user: the password must not be guessable through a stolen session.
 */
export const deleteAccountRoutes = new Hono<AppEnv>().delete("/me", requireUser, jsonBody(deleteAccountBody), async (c) => {
  const input = c.req.valid("json");
  await throttle(c, "login", "delete-account", c.var.user.id);
  const credential = c.var.credential;
  const googleSignInAt = credential.kind === "firebase" ? credential.authTime : undefined;
  await deleteAccount({ ctx: serviceContext(c), input: { userId: c.var.user.id, password: input.password, googleSignInAt } });
  return c.json({ message: serverMessages.accountDeleted });
});
