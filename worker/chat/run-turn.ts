import { chatLimits, chatMessages, type Chat, type ChatMessage, type ServerFrame, type sendMessageData } from "../../contract";
import type { z } from "zod";
import type { ModelProvider } from "../models";
import type { ActiveReplies, ActiveReply } from "./active-replies";
import { replyFailureMessage } from "./model-failure";
import { buildPrompt } from "./prompt";
import type { ChatStore, ChatWithInstructions } from "./store";
import { cleanTitle, fallbackTitle, titlePrompt } from "./title";

export type SendMessage = z.output<typeof sendMessageData>;

export interface TurnDeps {
  store: ChatStore;
  /** The configured model; null in offline mode. */
  provider: ModelProvider | null;
  active: ActiveReplies;
  /** Sends a frame to every connection of the room (all the owner's tabs). */
  broadcast: (frame: ServerFrame) => void;
  /**
   * Counts the turn against the owner's limits (a signed-in user's, chat/user-limits.ts; a guest's
   * regenerate), called once the turn is known to be allowed and its chat is reserved; a returned
   * text refuses it with nothing saved. Absent: nothing to count here.
   */
  admit?: () => string | null | Promise<string | null>;
  now?: () => number;
  newId?: () => string;
}

/** A send-message refused before anything was saved; `message` is safe to show. */
export class TurnRefused extends Error {
  constructor(
    message: string,
    readonly chatId?: string,
  ) {
    super(message);
    this.name = "TurnRefused";
  }
}

export type ReplyOutcome = { status: "complete" | "stopped" } | { status: "error"; error: string };

export const publicChat = ({ instructions: _instructions, ...chat }: ChatWithInstructions): Chat => chat;

/**
 * One exchange of a chat. The user's message (and the new chat, if any) is saved, with an empty
 * reply row (status streaming), before any of the reply is shown (the model request overlaps the
 * save; a failed save aborts it); deltas are broadcast as they
 * arrive; the reply ends `complete`, `stopped` (by `stop`, text kept) or `error` (text so far
 * kept, message-error sent). The first exchange names the chat. Resolves when all of it is done,
 * so the room that awaits it stays alive while the model writes, whoever is still connected.
 * Throws TurnRefused when the turn cannot start (unknown chat, a reply already in progress…).
 */
export async function runTurn(deps: TurnDeps, data: SendMessage): Promise<void> {
  const now = deps.now ?? Date.now;
  const newId = deps.newId ?? (() => crypto.randomUUID());
  // Read early, in parallel with the rest; a failure only means the default model.
  const preferredModel = deps.store.preferredModel().catch(() => null);

  const { chat, isNewChat, history } = await resolveChat(deps, data, now, newId);
  const active = deps.active.reserve(chat.id);
  if (!active) throw new TurnRefused(chatMessages.replyInProgress, chat.id);
  try {
    const refusal = deps.admit ? await deps.admit() : null;
    if (refusal) throw new TurnRefused(refusal, isNewChat ? undefined : chat.id);
    const { userMessage, reply } = turnMessages(chat, data, now(), newId);
    // The model request starts now, while the question is being saved: the first token then
    // waits for whichever is slower, not for both. Nothing of the reply reaches a client before
    // the save succeeded, and a failed save aborts the request, so the rule still holds that no
    // reply exists without its saved question.
    const model = data.model ?? chat.model ?? (await preferredModel) ?? undefined;
    const prompt = buildPrompt({ instructions: chat.instructions, history, content: data.content, files: data.files });
    const stream = deps.provider ? startStream(deps.provider, { messages: prompt, model, signal: active.controller.signal }) : null;
    try {
      await deps.store.startTurn({ chat: publicChat(chat), isNewChat, userMessage, reply });
    } catch (error) {
      active.controller.abort();
      console.error(JSON.stringify({ event: "chat-turn-save-failed", chatId: chat.id, error: String(error) }));
      throw new TurnRefused(chatMessages.replyFailed, isNewChat ? undefined : chat.id);
    }
    active.messageId = reply.id;
    const { clientMessageId } = data;
    deps.broadcast({ event: "new-message", data: { message: userMessage, clientMessageId, chat: publicChat(chat) } });
    deps.broadcast({ event: "thinking", data: { chatId: chat.id, messageId: reply.id, clientMessageId } });

    const outcome = await writeReply(deps, active, reply, stream, now);
    await finishTurn(deps, { chat, data, userMessage, reply, text: active.text, outcome, model, release: () => deps.active.release(active), now });
  } finally {
    deps.active.release(active);
  }
}

/** The user's message and the empty reply of a turn, as they are first saved. */
function turnMessages(chat: ChatWithInstructions, data: SendMessage, t: number, newId: () => string) {
  chat.updatedAt = t;
  const userMessage: ChatMessage = {
    id: newId(),
    chatId: chat.id,
    role: "user",
    content: { type: "text", data: data.content },
    files: data.files.map((f) => ({ name: f.name })),
    timestamp: t,
    status: "complete",
    error: null,
  };
  // One millisecond later, so ordering by time always puts the reply after the question.
  const reply: ChatMessage = { ...userMessage, id: newId(), role: "assistant", content: { type: "text", data: "" }, files: [], timestamp: t + 1, status: "streaming" };
  return { userMessage, reply };
}

/**
 * Saves the reply as it ended and tells every tab: `message-error` (with the saved partial) or
 * `new-message`. A chat without a title gets the user's first words at once, then the model's
 * title after a complete first exchange (sent as the same question again, with the new chat title).
 */
async function finishTurn(
  deps: TurnDeps,
  turn: {
    chat: ChatWithInstructions;
    data: SendMessage;
    /** The question, as saved (it never changes: the title's frame carries it). */
    userMessage: ChatMessage;
    reply: ChatMessage;
    /** The reply's text as it ended. */
    text: string;
    outcome: ReplyOutcome;
    model: string | undefined;
    /** Frees the chat for its next message. */
    release: () => void;
    now: () => number;
  },
) {
  const { chat, data, outcome } = turn;
  const final: ChatMessage = {
    ...turn.reply,
    content: { type: "text", data: turn.text },
    status: outcome.status,
    error: outcome.status === "error" ? outcome.error : null,
  };
  const fallback = chat.title ? undefined : fallbackTitle(data.content, data.files.map((f) => f.name));
  const saved = await deps.store.saveReply(final, turn.now(), fallback);
  // Deleted while the reply was written: nothing to tell (a frame would bring the chat back in the lists).
  if (!saved) return;
  chat.title = saved.title;
  // The model names the chat only while it still has the fallback name (a rename meanwhile wins).
  const needsTitle = fallback !== undefined && saved.title === fallback;
  if (outcome.status === "error") {
    deps.broadcast({ event: "message-error", data: { error: outcome.error, chatId: chat.id, messageId: final.id, clientMessageId: data.clientMessageId, message: final } });
    return;
  }
  deps.broadcast({ event: "new-message", data: { message: final, chat: publicChat(chat) } });
  // The reply is done: the chat takes its next message while the title is being written.
  turn.release();
  if (!needsTitle || outcome.status !== "complete" || !deps.provider) return;
  const title = await generateTitle(deps.provider, turn.model, data.content, final.content.data);
  if (!title || title === chat.title) return;
  // Only over the fallback it replaces: a rename (or a deletion) made meanwhile wins.
  const replaced = await deps.store.setTitle(chat.id, title, chat.title).catch((error: unknown) => {
    console.error(JSON.stringify({ event: "chat-title-save-failed", chatId: chat.id, error: String(error) }));
    return false;
  });
  if (!replaced) return;
  chat.title = title;
  // new-message is an upsert by message id: the question again (it never changes), with the chat's
  // new title. Not the reply: the chat was released, so it may have been regenerated meanwhile,
  // and this copy would put the old text back.
  deps.broadcast({ event: "new-message", data: { message: turn.userMessage, chat: publicChat(chat) } });
}

async function resolveChat(deps: TurnDeps, data: SendMessage, now: () => number, newId: () => string) {
  const { store } = deps;
  if (data.chatId) {
    const [chat, history] = await Promise.all([store.findChat(data.chatId), store.recentMessages(data.chatId, chatLimits.historyMessages)]);
    if (!chat) throw new TurnRefused(chatMessages.chatNotFound, data.chatId);
    return { chat, isNewChat: false, history };
  }
  let instructions = "";
  if (data.projectId) {
    const found = await store.findProjectInstructions(data.projectId);
    if (found === null) throw new TurnRefused(chatMessages.projectNotFound);
    instructions = found;
  }
  const t = now();
  const chat: ChatWithInstructions = {
    id: newId(),
    title: "",
    projectId: data.projectId ?? null,
    model: data.model ?? null,
    createdAt: t,
    updatedAt: t,
    instructions,
  };
  return { chat, isNewChat: true, history: [] as ChatMessage[] };
}

/** A model stream whose request is already on its way: `first` is its first step, pending. */
export interface StartedStream {
  iterator: AsyncIterator<string>;
  first: Promise<IteratorResult<string>>;
}

export function startStream(provider: ModelProvider, request: Parameters<ModelProvider["stream"]>[0]): StartedStream {
  const iterator = provider.stream(request)[Symbol.asyncIterator]();
  const first = iterator.next();
  // Handled where it is awaited; this only keeps an early failure from counting as unhandled.
  first.catch(() => {});
  return { iterator, first };
}

/** Streams the model's reply into `active.text`, broadcasting deltas and saving the text now and then. */
export async function writeReply(deps: TurnDeps, active: ActiveReply, reply: ChatMessage, stream: StartedStream | null, now: () => number): Promise<ReplyOutcome> {
  if (!stream) {
    // Offline mode: say so plainly, as a labelled note, instead of pretending to be a model.
    active.text = chatMessages.offlineReply;
    return { status: "complete" };
  }
  let lastSave = now();
  let saving: Promise<void> | null = null;
  try {
    for (let step = await stream.first; !step.done; step = await stream.iterator.next()) {
      const delta = step.value;
      const offset = active.text.length;
      active.text += delta;
      deps.broadcast({ event: "message-delta", data: { chatId: reply.chatId, messageId: reply.id, delta, offset } });
      if (!saving && now() - lastSave >= chatLimits.partialSaveIntervalMs) {
        lastSave = now();
        // Not awaited (the stream goes on); at most one at a time, and awaited before the final save.
        saving = deps.store
          .saveReply({ ...reply, content: { type: "text", data: active.text } }, lastSave)
          .then(() => undefined)
          .catch((error) => console.error(JSON.stringify({ event: "chat-partial-save-failed", messageId: reply.id, error: String(error) })))
          .finally(() => {
            saving = null;
          });
      }
    }
    return active.controller.signal.aborted ? { status: "stopped" } : { status: "complete" };
  } catch (error) {
    if (active.controller.signal.aborted) return { status: "stopped" };
    console.error(
      JSON.stringify({ event: "chat-model-failed", messageId: reply.id, kind: (error as { kind?: string }).kind, error: String(error) }),
    );
    return { status: "error", error: replyFailureMessage(error) };
  } finally {
    await saving;
  }
}

/** A ≤6-word title from the model, or null (timeout, failure, empty answer): the fallback stays. */
export async function generateTitle(provider: ModelProvider, model: string | undefined, userText: string, replyText: string) {
  try {
    const raw = await provider.complete({
      messages: titlePrompt(userText, replyText),
      model,
      maxTokens: 32,
      signal: AbortSignal.timeout(chatLimits.titleTimeoutMs),
    });
    return cleanTitle(raw);
  } catch {
    return null;
  }
}
