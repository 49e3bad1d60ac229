import { appRoutes, webhookMessages as M } from "../../../contract";
import { dbOf } from "../../db/client";
import type { Env } from "../../env";
import { emailSenderFor } from "../email/sender";
import { workspaceOwnerEmail } from "../team/owner-email";

/**
 * The owner is told once by e-mail that the server turned an endpoint off (the assistant's
 * object decided it, at most one per endpoint per webhookLimits.disabledEmailIntervalMs). The
 * workspace owner's address (team/owner-email.ts) is read from D1 when sending (off any visitor's path); a deleted account gets nothing.
 * The link opens the assistant's Webhooks tab on the origin the owner last managed them from.
 */
export async function emailOwnerOfDisabledWebhook(
  env: Env,
  input: { assistantId: string; userId: string; assistantName: string; url: string; hours: number; appOrigin: string | null },
): Promise<void> {
  const ownerEmail = await workspaceOwnerEmail(env.DB, input.userId);
  if (!ownerEmail) return;
  const link = `${input.appOrigin ?? ""}${appRoutes.publicAssistant(input.assistantId, "webhooks")}`;
  await emailSenderFor({ env, db: dbOf(env.DB) }).send({
    to: ownerEmail,
    subject: M.disabledEmailSubject(input.assistantName),
    text: M.disabledEmailBody(input.assistantName, input.url, input.hours, link),
  });
}
