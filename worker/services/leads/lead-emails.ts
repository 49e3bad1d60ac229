import { appRoutes, leadMessages, type Lead } from "../../../contract";
import type { ServiceContext } from "../context";
import { emailSenderFor } from "../email/sender";
import { workspaceOwnerEmail } from "../team/owner-email";

/**
 * The owner is told by e-mail of a new lead (the hub allowed it: the form's `emailOwner`, at most
 * leadLimits.maxOwnerEmailsPerHour per assistant), with each value under its label and a link to
 * the conversation in the assistant's History tab. The workspace owner's address (team/owner-email.ts) is read from D1 when sending; a
 * deleted account gets nothing.
 */
export async function emailOwnerOfLead(
  ctx: ServiceContext,
  input: { userId: string; assistantName: string; assistantId: string; lead: Pick<Lead, "sessionId" | "values">; appOrigin: string },
): Promise<void> {
  const ownerEmail = await workspaceOwnerEmail(ctx.env.DB, input.userId);
  if (!ownerEmail) return;
  const link = `${input.appOrigin}${appRoutes.historyConversation(input.assistantId, input.lead.sessionId)}`;
  const lines = input.lead.values.map((v) => leadMessages.ownerEmailLine(v.label, v.value.replace(/[\r\n]+/g, " "))).join("\n");
  await emailSenderFor(ctx).send({
    to: ownerEmail,
    subject: leadMessages.ownerEmailSubject(input.assistantName),
    text: leadMessages.ownerEmailBody(input.assistantName, lines, link),
  });
}
