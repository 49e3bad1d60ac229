import { eq, inArray, or } from "drizzle-orm";
import { auth, serverMessages, userRoomId } from "../../../contract";
import { writeBatch } from "../../db/client";
import { authTokens, chats, messages, projects, publicAssistants, users, verificationCodes } from "../../db/schema";
import { AppError, invalid, notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { callChatRoom } from "../call-chat-room";
import { deletePublicAssistant } from "../public-assistants/delete-public-assistant";
import { revokeChatSockets } from "../realtime/revoke-chat-sockets";
import { checkPassword } from "./check-password";
import { findUser } from "./find-user";

/**
 * Deletes the account and everything it owns. A password account confirms with its password; a
 * federated-only account with a Google sign-in less than `auth.recentFederatedLoginMs` old (the
 * request's own Firebase ID token). Either way a stolen session alone cannot erase it.
 *
 * Order: the public assistants first, each with deletePublicAssistant (R2 files, chunks, vectors,
 * visitor sessions and messages, then its rows; their widget sockets close), then the user's own
 * room erases their chats, messages, projects and settings (a room that cannot be reached stops
 * the deletion with a retryable 503), then the account's D1 rows in one batch (codes, tokens, the
 * user, and any legacy chat rows the room had not moved in yet). A failure part-way leaves the
 * user row, so a retried DELETE finishes the job. Last, every chat socket of the account closes,
 * whatever credential opened it.
 */
export async function deleteAccount({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: {
    userId: string;
    password?: string | undefined;
    /** When the request's Google ID token says the user signed in (seconds); absent for a Tala token. */
    googleSignInAt?: number | undefined;
  };
}): Promise<void> {
  const user = await findUser({ ctx, input: { id: input.userId } });
  if (!user) throw notFound();
  if (user.passwordHash) {
    if (!input.password) throw invalid(serverMessages.passwordRequired, { password: serverMessages.passwordRequired });
    if (!(await checkPassword({ ctx, input: { user, password: input.password } }))) {
      throw invalid(serverMessages.wrongPassword, { password: serverMessages.wrongPassword });
    }
  } else {
    // No password to confirm with: a fresh Google sign-in stands in for it, so a stolen Tala
    // token (30 days) alone cannot erase the account.
    const signedInAt = (input.googleSignInAt ?? 0) * 1000;
    if (Date.now() - signedInAt > auth.recentFederatedLoginMs) throw new AppError("FORBIDDEN", serverMessages.recentGoogleSignInRequired);
  }

  const assistants = await ctx.db.select({ id: publicAssistants.id }).from(publicAssistants).where(eq(publicAssistants.userId, user.id));
  for (const { id } of assistants) await deletePublicAssistant({ ctx, input: { userId: user.id, assistantId: id } });

  await callChatRoom(ctx, userRoomId(user.id), (room) => room.eraseAccountData());
  const chatsOfUser = ctx.db.select({ id: chats.id }).from(chats).where(eq(chats.userId, user.id));
  const [, , , , deletedTokens] = await writeBatch(ctx.db, [
    ctx.db.delete(messages).where(inArray(messages.chatId, chatsOfUser)),
    ctx.db.delete(chats).where(eq(chats.userId, user.id)),
    ctx.db.delete(projects).where(eq(projects.userId, user.id)),
    ctx.db.delete(verificationCodes).where(or(eq(verificationCodes.userId, user.id), eq(verificationCodes.email, user.email))),
    // The tokens deleted are the ones the room must refuse, a token issued a moment ago included.
    ctx.db.delete(authTokens).where(eq(authTokens.userId, user.id)).returning({ id: authTokens.id, expiresAt: authTokens.expiresAt }),
    ctx.db.delete(users).where(eq(users.id, user.id)),
  ]);
  await revokeChatSockets({ ctx, input: { userId: user.id, tokens: deletedTokens, everyConnection: true } });
}
