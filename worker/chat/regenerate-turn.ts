import { chatLimits, chatMessages, regenerateMessages, type ChatMessage, type regenerateData } from "../../contract";
import type { z } from "zod";
import { buildPrompt } from "./prompt";
import { withVersions } from "./reply-versions";
import { generateTitle, publicChat, startStream, TurnRefused, writeReply, type TurnDeps } from "./run-turn";
import { fallbackTitle } from "./title";

export type Regenerate = z.output<typeof regenerateData>;

/** `admit` (TurnDeps) counts the regenerate as a message: a guest's daily messages, a signed-in user's limits. */
export type RegenerateDeps = TurnDeps;

/**
 * Regenerate (and Retry of a failed reply): the chat's last reply written again in place. Only
 * the chat's last message, an assistant reply (complete, stopped or failed), with the question
 * before it, while no reply is being written in the chat. The model answers that question from
 * the conversation before it (the reply's earlier versions are not in its context); the old text
 * becomes an earlier version (at most chatLimits.maxReplyVersions in all).
 *
 * Frames (to every tab): `new-message` with the reply as it now stands (same id, status streaming,
 * empty text, its versions), `thinking`, the deltas, then `new-message` (complete or stopped) or
 * `message-error` (error), each final message with its versions. The chat's title is left alone,
 * except that a chat still named by its first question's words (its first reply failed, say) is
 * named by the model from the first exchange once its reply completes, as after a first reply.
 * Throws TurnRefused, having changed nothing, when it cannot start. Resolves when all is done.
 */
export async function runRegenerate(deps: RegenerateDeps, data: Regenerate): Promise<void> {
  const now = deps.now ?? Date.now;
  const { store } = deps;
  const preferredModel = store.preferredModel().catch(() => null);
  const [chat, recent] = await Promise.all([store.findChat(data.chatId), store.recentMessages(data.chatId, chatLimits.historyMessages + 2)]);
  if (!chat) throw new TurnRefused(chatMessages.chatNotFound, data.chatId);
  if (deps.active.get(chat.id)) throw new TurnRefused(chatMessages.replyInProgress, chat.id);
  const target = recent.at(-1);
  if (!target || target.id !== data.messageId || target.role !== "assistant") throw new TurnRefused(regenerateMessages.notLastReply, chat.id);
  const question = recent.at(-2);
  if (!question || question.role !== "user") throw new TurnRefused(regenerateMessages.noQuestion, chat.id);

  // Synchronous after the checks' awaits: a send-message or another regenerate that slipped in
  // meanwhile holds the chat, and this one is refused.
  const active = deps.active.reserve(chat.id);
  if (!active) throw new TurnRefused(chatMessages.replyInProgress, chat.id);
  try {
    const refusal = deps.admit ? await deps.admit() : null;
    if (refusal) throw new TurnRefused(refusal, chat.id);

    // The question's attachments: their text when the client still has it, else their names.
    const files = data.files.length > 0 ? data.files : question.files.map((f) => ({ name: f.name, text: "" }));
    const model = chat.model ?? (await preferredModel) ?? undefined;
    const prompt = buildPrompt({ instructions: chat.instructions, history: recent.slice(0, -2), content: question.content.data, files });
    // As in runTurn: the request overlaps the save, and a failed save aborts it.
    const stream = deps.provider ? startStream(deps.provider, { messages: prompt, model, signal: active.controller.signal }) : null;
    const at = now();
    const reply: ChatMessage = { ...target, content: { type: "text", data: "" }, status: "streaming", error: null };
    let earlier;
    try {
      earlier = await store.startRegenerate({ reply, at, keepEarlier: chatLimits.maxReplyVersions - 1 });
    } catch (error) {
      active.controller.abort();
      console.error(JSON.stringify({ event: "chat-regenerate-save-failed", chatId: chat.id, error: String(error) }));
      throw new TurnRefused(chatMessages.replyFailed, chat.id);
    }
    if (!earlier) {
      // Deleted between the checks and the save.
      active.controller.abort();
      throw new TurnRefused(chatMessages.chatNotFound, chat.id);
    }
    chat.updatedAt = at;
    active.messageId = reply.id;
    active.regenerating = withVersions(reply, earlier, at);
    deps.broadcast({ event: "new-message", data: { message: active.regenerating, chat: publicChat(chat) } });
    deps.broadcast({ event: "thinking", data: { chatId: chat.id, messageId: reply.id } });

    const outcome = await writeReply(deps, active, reply, stream, now);
    const final: ChatMessage = {
      ...reply,
      content: { type: "text", data: active.text },
      status: outcome.status,
      error: outcome.status === "error" ? outcome.error : null,
    };
    const saved = await store.saveReply(final, now());
    // Deleted while the reply was written: nothing to tell (a frame would bring the chat back).
    if (!saved) return;
    chat.title = saved.title;
    const message = withVersions(final, earlier, at);
    if (outcome.status === "error") {
      deps.broadcast({ event: "message-error", data: { error: outcome.error, chatId: chat.id, messageId: final.id, message } });
      return;
    }
    deps.broadcast({ event: "new-message", data: { message, chat: publicChat(chat) } });
    const fallback = fallbackTitle(question.content.data, question.files.map((f) => f.name));
    const firstExchange = recent.length === 2 && chat.title === fallback;
    if (!firstExchange || outcome.status !== "complete" || !deps.provider) return;
    // The reply is done: the chat takes its next message while the title is being written.
    deps.active.release(active);
    const title = await generateTitle(deps.provider, model, question.content.data, final.content.data);
    if (!title || title === chat.title) return;
    // Only over the fallback it replaces: a rename (or a deletion) made meanwhile wins.
    const replaced = await store.setTitle(chat.id, title, fallback).catch(() => false);
    if (!replaced) return;
    chat.title = title;
    // As after a first reply: the question again (it never changes), with the chat's new title.
    deps.broadcast({ event: "new-message", data: { message: question, chat: publicChat(chat) } });
  } finally {
    deps.active.release(active);
  }
}
