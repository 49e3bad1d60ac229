import { appRoutes, handoffMessages } from "../../../contract";
import type { ServiceContext } from "../context";
import { emailSenderFor } from "../email/sender";
import { workspaceOwnerEmail } from "../team/owner-email";

/**
 * The owner is told by e-mail that a visitor asked for a person (the hub allowed it: the owner's
 * `emailOwner`, at most one per conversation per handoffLimits.emailIntervalMs), with a link to
 * the conversation in the dashboard. The workspace owner's address (team/owner-email.ts) is read from D1 when sending; a deleted account
 * gets nothing.
 */
export async function emailOwnerOfRequest(
  ctx: ServiceContext,
  input: { userId: string; assistantName: string; question: string; assistantId: string; sessionId: string; appOrigin: string },
): Promise<void> {
  const ownerEmail = await workspaceOwnerEmail(ctx.env.DB, input.userId);
  if (!ownerEmail) return;
  const link = `${input.appOrigin}${appRoutes.inboxConversation(input.assistantId, input.sessionId)}`;
  await emailSenderFor(ctx).send({
    to: ownerEmail,
    subject: handoffMessages.ownerEmailSubject(input.assistantName),
    text: handoffMessages.ownerEmailBody(input.assistantName, input.question, link),
  });
}

/** A visitor who left an address (or a signed visitor with one) gets a person's reply written while they were away (throttled by the hub). */
export async function emailVisitorOfReply(ctx: ServiceContext, input: { to: string; assistantName: string; agentName: string; reply: string }): Promise<void> {
  await emailSenderFor(ctx).send({
    to: input.to,
    subject: handoffMessages.visitorEmailSubject(input.assistantName),
    text: handoffMessages.visitorEmailBody(input.assistantName, input.agentName, input.reply),
  });
}
