import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { serverMessages } from "../../../contract";
import { writeBatch } from "../../db/client";
import { authTokens, chats, messages, projects, publicAssistants, users, verificationCodes } from "../../db/schema";
import { invalid, notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { deletePublicAssistant } from "../public-assistants/delete-public-assistant";
import { revokeChatSockets } from "../realtime/revoke-chat-sockets";
import { checkPassword } from "./check-password";
import { findUser } from "./find-user";

/**
 * Deletes the account and everything it owns. A password account confirms with its password (a
 * stolen session alone cannot erase it); a federated-only account has none to give, so the valid
 * credential that reached this service suffices.
 *
 * Order: the public assistants first, each with deletePublicAssistant (R2 files, chunks, vectors,
 * visitor sessions and messages, then its rows; their widget sockets close), then the account's
 * own rows in one batch (messages, chats, projects, codes, tokens, the user, whose settings live
 * on its row). A failure part-way leaves the user row, so a retried DELETE finishes the job. Last,
 * every chat socket of the account closes, whatever credential opened it.
 */
export async function deleteAccount({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; password?: string | undefined };
}): Promise<void> {
  const user = await findUser({ ctx, input: { id: input.userId } });
  if (!user) throw notFound();
  if (user.passwordHash) {
    if (!input.password) throw invalid(serverMessages.passwordRequired, { password: serverMessages.passwordRequired });
    if (!(await checkPassword({ ctx, input: { user, password: input.password } }))) {
      throw invalid(serverMessages.wrongPassword, { password: serverMessages.wrongPassword });
    }
  }

  const assistants = await ctx.db.select({ id: publicAssistants.id }).from(publicAssistants).where(eq(publicAssistants.userId, user.id));
  for (const { id } of assistants) await deletePublicAssistant({ ctx, input: { userId: user.id, assistantId: id } });

  const liveTokens = await ctx.db
    .select({ id: authTokens.id, expiresAt: authTokens.expiresAt })
    .from(authTokens)
    .where(and(eq(authTokens.userId, user.id), isNull(authTokens.revokedAt)));
  const chatsOfUser = ctx.db.select({ id: chats.id }).from(chats).where(eq(chats.userId, user.id));
  await writeBatch(ctx.db, [
    ctx.db.delete(messages).where(inArray(messages.chatId, chatsOfUser)),
    ctx.db.delete(chats).where(eq(chats.userId, user.id)),
    ctx.db.delete(projects).where(eq(projects.userId, user.id)),
    ctx.db.delete(verificationCodes).where(or(eq(verificationCodes.userId, user.id), eq(verificationCodes.email, user.email))),
    ctx.db.delete(authTokens).where(eq(authTokens.userId, user.id)),
    ctx.db.delete(users).where(eq(users.id, user.id)),
  ]);
  await revokeChatSockets({ ctx, input: { userId: user.id, tokens: liveTokens, everyConnection: true } });
}
