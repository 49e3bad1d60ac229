import type { Chat, ChatMessage } from "../../../contract";
import type { chats, messages } from "../../db/schema";

export type ChatRow = typeof chats.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

/** The chat as the API shows it (contract `chatSchema`): never its owner id. */
export function toChat(row: ChatRow): Chat {
  return {
    id: row.id,
    title: row.title,
    projectId: row.projectId,
    model: row.model,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Stored files are a JSON array of { name }; anything else reads as no files. */
export function parseFileNames(json: string): { name: string }[] {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.flatMap((f: unknown) =>
      f && typeof f === "object" && typeof (f as { name?: unknown }).name === "string" ? [{ name: (f as { name: string }).name }] : [],
    );
  } catch {
    return [];
  }
}

/** A message row as the contract's `chatMessageSchema` (spec section 3 "Message"). */
export function toChatMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    chatId: row.chatId,
    role: row.role,
    content: { type: "text", data: row.content },
    files: parseFileNames(row.files),
    timestamp: row.createdAt,
    status: row.status,
    error: row.error,
  };
}

/** The row that stores a contract message. */
export function toMessageRow(message: ChatMessage): typeof messages.$inferInsert {
  return {
    id: message.id,
    chatId: message.chatId,
    role: message.role,
    contentType: message.content.type,
    content: message.content.data,
    files: JSON.stringify(message.files.map((f) => ({ name: f.name }))),
    status: message.status,
    error: message.error ?? null,
    createdAt: message.timestamp,
  };
}
