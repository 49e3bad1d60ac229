import { chatLimits, chatMessages, type ChatMessage } from "../../contract";
import type { ChatTurn } from "../models";

export interface AttachedFile {
  name: string;
  text: string;
}

export interface PromptInput {
  /** The project's instructions: the system prompt. Empty for none. */
  instructions: string;
  /** Earlier messages of the chat, oldest first. */
  history: ChatMessage[];
  content: string;
  files: AttachedFile[];
}

/**
 * The user's turn as the model sees it: their text, then each attachment's extracted text,
 * bounded per file and in total (chatLimits), a cut file marked as such.
 */
export function userTurnText(content: string, files: AttachedFile[]): string {
  let budget = chatLimits.promptFilesTotalChars;
  const parts = [content.trim()];
  for (const file of files) {
    const text = file.text.trim();
    if (!text) {
      parts.push(`[Attached file: ${file.name} (no text could be read from it)]`);
      continue;
    }
    const room = Math.max(0, Math.min(chatLimits.promptFileChars, budget));
    const kept = text.slice(0, room);
    budget -= kept.length;
    const cut = kept.length < text.length ? `\n${chatMessages.fileTruncatedNote}` : "";
    parts.push(`[Attached file: ${file.name}]\n${kept}${cut}\n[End of ${file.name}]`);
  }
  return parts.filter(Boolean).join("\n\n");
}

/**
 * The messages sent to the model: the project's instructions as the system prompt, the most
 * recent history that fits `chatLimits.historyMessages` and `historyChars` (whole messages only,
 * newest kept), then the user's turn. Replies with no text (failed before any token) are skipped.
 */
export function buildPrompt(input: PromptInput): ChatTurn[] {
  const turns: ChatTurn[] = [];
  const instructions = input.instructions.trim();
  if (instructions) turns.push({ role: "system", content: instructions });

  const kept: ChatTurn[] = [];
  let chars = 0;
  for (let i = input.history.length - 1; i >= 0 && kept.length < chatLimits.historyMessages; i--) {
    const m = input.history[i]!;
    if (m.role === "system" || !m.content.data.trim()) continue;
    chars += m.content.data.length;
    if (chars > chatLimits.historyChars) break;
    kept.push({ role: m.role, content: m.content.data });
  }
  turns.push(...kept.reverse());
  turns.push({ role: "user", content: userTurnText(input.content, input.files) });
  return turns;
}
