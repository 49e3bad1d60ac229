import { Hono } from "hono";
import { emailCodeBody, emailOnlyBody, resetPasswordConfirmBody, serverMessages } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { throttle } from "../../http/throttle";
import { jsonBody } from "../../http/validate";
import { confirmEmailVerification } from "../../services/auth/confirm-email-verification";
import { confirmPasswordReset } from "../../services/auth/confirm-password-reset";
import { requestEmailVerification } from "../../services/auth/request-email-verification";
import { requestPasswordReset } from "../../services/auth/request-password-reset";

/**
 * E-mail verification and password reset: a code is requested, then confirmed. Requests answer
 * codeSent whether or not an account exists. Every call is throttled per IP and per address.
 */
export const codeRoutes = new Hono<AppEnv>()
  .post("/verify-email/request", jsonBody(emailOnlyBody), async (c) => {
    const { email } = c.req.valid("json");
    await throttle(c, "code", "verify-email/request", email);
    await requestEmailVerification({ ctx: serviceContext(c), input: { email } });
    return c.json({ message: serverMessages.codeSent });
  })

  .post("/verify-email/confirm", jsonBody(emailCodeBody), async (c) => {
    const input = c.req.valid("json");
    await throttle(c, "code", "verify-email/confirm", input.email);
    return c.json({ user: await confirmEmailVerification({ ctx: serviceContext(c), input }) });
  })

  .post("/reset-password/request", jsonBody(emailOnlyBody), async (c) => {
    const { email } = c.req.valid("json");
    await throttle(c, "code", "reset-password/request", email);
    await requestPasswordReset({ ctx: serviceContext(c), input: { email } });
    return c.json({ message: serverMessages.codeSent });
  })

  .post("/reset-password/confirm", jsonBody(resetPasswordConfirmBody), async (c) => {
    const input = c.req.valid("json");
    await throttle(c, "code", "reset-password/confirm", input.email);
    await confirmPasswordReset({ ctx: serviceContext(c), input });
    return c.json({ message: serverMessages.passwordReset });
  });
