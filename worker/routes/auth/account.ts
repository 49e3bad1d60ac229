import { Hono } from "hono";
import { changeEmailRequestBody, changePasswordBody, emailCodeBody, serverMessages } from "../../../contract";
import { requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { throttle } from "../../http/throttle";
import { jsonBody } from "../../http/validate";
import { changePassword } from "../../services/auth/change-password";
import { confirmEmailChange } from "../../services/auth/confirm-email-change";
import { requestEmailChange } from "../../services/auth/request-email-change";

/**
 * Changes to a signed-in account's credentials: its e-mail address and its password.
 * requireUser is set per route: a sub-app `.use()` would also guard the sibling /auth routes.
 */
export const accountRoutes = new Hono<AppEnv>()
  .post("/change-email/request", requireUser, jsonBody(changeEmailRequestBody), async (c) => {
    const input = c.req.valid("json");
    await throttle(c, "code", "change-email/request", input.newEmail);
    await requestEmailChange({ ctx: serviceContext(c), input: { ...input, userId: c.var.user.id } });
    return c.json({ message: serverMessages.changeEmailCodeSent });
  })

  .post("/change-email/confirm", requireUser, jsonBody(emailCodeBody), async (c) => {
    const input = c.req.valid("json");
    await throttle(c, "code", "change-email/confirm", input.email);
    return c.json({ user: await confirmEmailChange({ ctx: serviceContext(c), input: { ...input, userId: c.var.user.id } }) });
  })

  // Throttled like sign-in, per user: the current password must not be guessable through a stolen session.
  .post("/change-password", requireUser, jsonBody(changePasswordBody), async (c) => {
    const input = c.req.valid("json");
    await throttle(c, "login", "change-password", c.var.user.id);
    const result = await changePassword({
      ctx: serviceContext(c),
      input: {
        ...input,
        userId: c.var.user.id,
        userAgent: c.req.header("user-agent"),
        tokenId: c.var.credential.kind === "token" ? c.var.credential.tokenId : undefined,
      },
    });
    return c.json({ ...result, message: serverMessages.passwordChanged });
  });
