import { chatLimits, chatMessages } from "../../contract";
import type { ChatTurn } from "../models";

const MAX_TITLE_CHARS = 80;

/** At most `titleMaxWords` words and MAX_TITLE_CHARS characters of `text`, on one line. */
function firstWords(text: string): string {
  const words = text
    .replace(/[`*_#>[\]()~]/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, chatLimits.titleMaxWords);
  let title = words.join(" ");
  if (title.length > MAX_TITLE_CHARS) title = `${title.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…`;
  return title;
}

/** The title when no model can write one: the first words of the user's message, else a file name. */
export function fallbackTitle(content: string, fileNames: string[] = []): string {
  return firstWords(content) || firstWords(fileNames[0] ?? "") || chatMessages.untitledChat;
}

/** The request for a title of the first exchange (both sides bounded). */
export function titlePrompt(userText: string, replyText: string): ChatTurn[] {
  return [
    {
      role: "system",
      content: `You name conversations. Answer with a title of at most ${chatLimits.titleMaxWords} words for the conversation, in its language. No quotes, no punctuation at the end, nothing else.`,
    },
    { role: "user", content: `User: ${userText.slice(0, 1500)}\n\nAssistant: ${replyText.slice(0, 1500)}` },
  ];
}

/** A model's answer to titlePrompt, cleaned: first line, no quotes or "Title:" label, ≤ 6 words; null if empty. */
export function cleanTitle(raw: string): string | null {
  const line =
    raw
      .replace(/<think>[\s\S]*?<\/think>/gi, "")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find(Boolean) ?? "";
  const unlabelled = line.replace(/^(title|titre)\s*:\s*/i, "").replace(/^["'“”‘’«»]+|["'“”‘’«».!?:;,]+$/g, "");
  const title = firstWords(unlabelled);
  return title || null;
}
