import { auth, emailMessages, type EmailCodePurpose } from "../../../contract";
import type { ServiceContext } from "../context";
import { emailSenderFor } from "./sender";

/** Writes and sends the e-mail carrying a one-time code for `purpose`. */
export async function sendCodeEmail({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { to: string; purpose: EmailCodePurpose; code: string };
}): Promise<void> {
  const template = emailMessages[input.purpose];
  await emailSenderFor(ctx).send({
    to: input.to,
    subject: template.subject,
    text: template.text(input.code, Math.round(auth.codeTtlMs / 60_000)),
    code: input.code,
  });
}
