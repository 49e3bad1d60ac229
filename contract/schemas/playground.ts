/**
 * The owner's Playground: the owner chats with their assistant as a visitor would,
 * from the dashboard, without counting against the visitors' limits or appearing in the history.
 *
 *   POST /api/public-assistants/{id}/playground   playgroundMessageBody (owner's token)
 *        → text/event-stream of the widget's server events (schemas/widget.ts: `new-message` echoing
 *          `clientMessageId`, `thinking`, `message-delta`, `new-message` with `sources`, or
 *          `message-error`; then `remaining-messages`: the owner's playground throttle this minute)
 *
 * The conversation lives in the browser: each message carries its earlier turns (`history`, oldest
 * first), bounded like a visitor's (`playground` in constants.ts).
 */
import { z } from "zod";
import { playground, widget } from "../constants";
import { playgroundMessages as M, widgetMessages } from "../messages";
import { hasMessageContent, widgetSendMessageFields } from "./widget";

export const playgroundTurnSchema = z.object(
  {
    role: z.enum(["user", "assistant"], { error: M.turnInvalid }),
    content: z.string({ error: M.turnInvalid }).max(playground.maxHistoryChars, { error: M.historyTooLong(playground.maxHistoryChars) }),
  },
  { error: M.turnInvalid },
);
export type PlaygroundTurn = z.infer<typeof playgroundTurnSchema>;

export const playgroundMessageBody = widgetSendMessageFields
  .extend({
    history: z
      .array(playgroundTurnSchema)
      .max(playground.maxHistoryMessages, { error: M.tooManyTurns(playground.maxHistoryMessages) })
      .optional()
      .default([]),
    /** The owner's browser language, as a visitor's widget sends its own (the prompt answers in it when unsure). */
    locale: z.string().max(widget.maxLocaleChars).optional().default(""),
  })
  .refine(hasMessageContent, { error: widgetMessages.emptyMessage })
  .refine((d) => d.history.reduce((n, t) => n + t.content.length, 0) <= playground.maxHistoryChars, {
    error: M.historyTooLong(playground.maxHistoryChars),
    path: ["history"],
  });
export type PlaygroundMessageBody = z.input<typeof playgroundMessageBody>;

/** The playground's path (relative to the API's base, /api). */
export const playgroundPath = (assistantId: string) => `/public-assistants/${encodeURIComponent(assistantId)}/playground`;
