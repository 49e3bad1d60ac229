import { and, eq, inArray, ne, or } from "drizzle-orm";
import { auth, serverMessages, teamMessages, userRoomId } from "../../../contract";
import { writeBatch } from "../../db/client";
import { auditLog, authTokens, chats, messages, projects, publicAssistants, users, verificationCodes, workspaceInvitations, workspaceMembers, workspaces } from "../../db/schema";
import { AppError, invalid, notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { callChatRoom } from "../call-chat-room";
import { deletePublicAssistant } from "../public-assistants/delete-public-assistant";
import { revokeChatSockets } from "../realtime/revoke-chat-sockets";
import { checkPassword } from "./check-password";
import { findUser } from "./find-user";
import { auditActor, auditInsert } from "../team/audit";
import { workspacesOwnedBy } from "../team/workspace-directory";

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
 *
 * Teams: as Slack asks of a primary owner, an owner of a workspace other people work in transfers
 * it first (409 `transferBeforeDeleting`, nothing deleted). Every workspace they own alone goes
 * with its assistants, invitations and audit log; they leave every workspace they are a member of
 * (`member.left` in its log). Their own workspace, when its ownership was transferred to someone
 * else, keeps its id (their user id, which its assistants' `user_id` references): the user row
 * stays as a scrubbed tombstone (no e-mail, name, password, Google link or token) instead of
 * being deleted, which would cascade to those assistants.
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

  const owned = await workspacesOwnedBy(ctx, user.id);
  const shared = owned.filter((w) => w.others > 0);
  if (shared.length) throw new AppError("CONFLICT", teamMessages.transferBeforeDeleting(shared.map((w) => w.name)));
  const ownedIds = owned.map((w) => w.id);
  const assistants = ownedIds.length
    ? await ctx.db.select({ id: publicAssistants.id, workspaceId: publicAssistants.userId }).from(publicAssistants).where(inArray(publicAssistants.userId, ownedIds))
    : [];
  for (const { id, workspaceId } of assistants) await deletePublicAssistant({ ctx, input: { userId: workspaceId, assistantId: id } });
  const memberships = await ctx.db.select({ workspaceId: workspaceMembers.workspaceId }).from(workspaceMembers).where(eq(workspaceMembers.userId, user.id));
  // Their own workspace lives on under someone else: its id must keep naming a user row.
  const [handedOver] = await ctx.db.select({ id: workspaces.id }).from(workspaces).where(and(eq(workspaces.id, user.id), ne(workspaces.ownerId, user.id))).limit(1);
  const actor = auditActor(user);

  // A handed-over workspace's all-assistants budget lives in this room (named by its id): it stays.
  await callChatRoom(ctx, userRoomId(user.id), (room) => room.eraseAccountData({ keepWorkspace: !!handedOver }));
  const chatsOfUser = ctx.db.select({ id: chats.id }).from(chats).where(eq(chats.userId, user.id));
  const [, , , , deletedTokens] = await writeBatch(ctx.db, [
    ctx.db.delete(messages).where(inArray(messages.chatId, chatsOfUser)),
    ctx.db.delete(chats).where(eq(chats.userId, user.id)),
    ctx.db.delete(projects).where(eq(projects.userId, user.id)),
    ctx.db.delete(verificationCodes).where(or(eq(verificationCodes.userId, user.id), eq(verificationCodes.email, user.email))),
    // The tokens deleted are the ones the room must refuse, a token issued a moment ago included.
    ctx.db.delete(authTokens).where(eq(authTokens.userId, user.id)).returning({ id: authTokens.id, expiresAt: authTokens.expiresAt }),
    ctx.db.delete(workspaceMembers).where(eq(workspaceMembers.userId, user.id)),
    ctx.db.delete(workspaceInvitations).where(inArray(workspaceInvitations.workspaceId, ownedIds)),
    ctx.db.delete(auditLog).where(inArray(auditLog.workspaceId, ownedIds)),
    ctx.db.delete(workspaces).where(inArray(workspaces.id, ownedIds)),
    ...memberships.map((m) => auditInsert(ctx, { workspaceId: m.workspaceId, actor, action: "member.left", target: user.email, details: { accountDeleted: true } })),
    handedOver
      ? ctx.db
          .update(users)
          .set({ email: `deleted-${user.id}@deleted.invalid`, passwordHash: null, firstName: "", lastName: "", phone: "", birthDate: "", photoUrl: null, firebaseUid: null, emailVerifiedAt: null, settings: "{}", updatedAt: Date.now() })
          .where(eq(users.id, user.id))
      : ctx.db.delete(users).where(eq(users.id, user.id)),
  ]);
  await revokeChatSockets({ ctx, input: { userId: user.id, tokens: deletedTokens, everyConnection: true, keepWorkspace: !!handedOver } });
}
