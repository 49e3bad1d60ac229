import { serverMessages } from "../../../contract";
import type { Env } from "../../env";
import { AppError } from "../../http/errors";
import type { EmailSender } from "./types";

const DEFAULT_EMAIL_API_URL = "https://api.resend.com/emails";

const unavailable = () => new AppError("SERVICE_UNAVAILABLE", serverMessages.emailSendFailed);

/**
 * Production sender: one POST per e-mail to a Resend-compatible API
 * (`{ from, to, subject, text }` with a Bearer key). Configuration gaps and provider failures are
 * logged for the operator and surface to the user only as emailSendFailed (503).
 */
export function httpEmailSender(env: Pick<Env, "EMAIL_API_URL" | "EMAIL_API_KEY" | "EMAIL_FROM">): EmailSender {
  return {
    async send(message) {
      if (!env.EMAIL_API_KEY || !env.EMAIL_FROM) {
        console.error(JSON.stringify({ email: "not-configured", missing: !env.EMAIL_API_KEY ? "EMAIL_API_KEY" : "EMAIL_FROM" }));
        throw unavailable();
      }
      let response: Response;
      try {
        response = await fetch(env.EMAIL_API_URL || DEFAULT_EMAIL_API_URL, {
          method: "POST",
          headers: { authorization: `Bearer ${env.EMAIL_API_KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ from: env.EMAIL_FROM, to: message.to, subject: message.subject, text: message.text }),
        });
      } catch (error) {
        console.error(JSON.stringify({ email: "network-error", error: String(error) }));
        throw unavailable();
      }
      if (!response.ok) {
        // The provider's body may echo the address; log only the status.
        console.error(JSON.stringify({ email: "rejected", status: response.status }));
        throw unavailable();
      }
    },
  };
}
