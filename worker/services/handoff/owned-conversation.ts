import { isGone, type Gone } from "../../assistant/gone";
import { handoffMessages, widget, type User } from "../../../contract";
import { agentAuthor } from "../../assistant/handoff-store";
import { AppError, notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import type { PublicAssistantRow } from "../public-assistants/to-public-assistant";

/**
 * The owner's assistant (D1: another owner's or a missing one is a 404) and a conversation id
 * that can name one (longer than any session id: 404 without asking the assistant's object).
 */
export async function ownedConversation({ ctx, input }: { ctx: ServiceContext; input: { userId: string; assistantId: string; sessionId?: string } }): Promise<PublicAssistantRow> {
  const assistant = await requirePublicAssistant({ ctx, input });
  if (input.sessionId !== undefined && (input.sessionId.length === 0 || input.sessionId.length > widget.maxSessionIdChars)) throw conversationNotFound();
  return assistant;
}

export const conversationNotFound = () => new AppError("NOT_FOUND", handoffMessages.conversationNotFound);

/** The assistant was deleted since the D1 read: as for a missing assistant. */
export function unlessGoneOr404<T>(value: T): Exclude<T, Gone> {
  if (isGone(value)) throw notFound();
  return value as Exclude<T, Gone>;
}

/** The person the visitor sees: the owner's display name, initials and photo (the signed-in user's row). */
export const authorOf = (user: Pick<User, "firstName" | "lastName" | "email" | "photoURL">) =>
  agentAuthor({ firstName: user.firstName, lastName: user.lastName, email: user.email, photoUrl: user.photoURL ?? null });
