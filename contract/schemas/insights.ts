/**
 * Insights for owners.
 *
 *   GET  /api/public-assistants/{id}/insights?days=7|30|90           → insightsResponse
 *   POST /api/widget/sessions/{sessionId}/messages/{messageId}/feedback   feedbackBody → feedbackResponse
 *        (publishable key, like every widget call; a second rating replaces the first)
 */
import { z } from "zod";
import { insightsLimits } from "../constants";
import { insightsMessages as M } from "../messages";

export const feedbackRatings = ["up", "down"] as const;
export type FeedbackRating = (typeof feedbackRatings)[number];

export const feedbackBody = z.object({ rating: z.enum(feedbackRatings, { error: M.ratingInvalid }) });
export type FeedbackBody = z.input<typeof feedbackBody>;
export const feedbackResponse = z.object({ messageId: z.string(), rating: z.enum(feedbackRatings) });
export type FeedbackResponse = z.infer<typeof feedbackResponse>;

const daysMessage = M.daysInvalid(insightsLimits.periods);
export const insightsQuery = z.object({
  days: z.coerce
    .number({ error: daysMessage })
    .refine((d) => (insightsLimits.periods as readonly number[]).includes(d), { error: daysMessage })
    .default(insightsLimits.defaultDays),
});

/** A question as visitors asked it (the most recent wording), how often, and where (newest conversations first). */
export const insightQuestionSchema = z.object({
  question: z.string(),
  count: z.number().int(),
  lastAskedAt: z.number(),
  sessionIds: z.array(z.string()),
  /** A knowledge gap a saved curated answer now covers (at the assistant's strictness): that pair's id. */
  resolvedBy: z.string().optional(),
});
export type InsightQuestion = z.infer<typeof insightQuestionSchema>;

export const ratedAnswerSchema = z.object({
  sessionId: z.string(),
  messageId: z.string(),
  rating: z.enum(feedbackRatings),
  /** The visitor's question before the answer, and the start of the answer. */
  question: z.string(),
  answer: z.string(),
  ratedAt: z.number(),
});
export type RatedAnswer = z.infer<typeof ratedAnswerSchema>;

/**
 * `daily`: one row per UTC day of the period, oldest first, zeros included (`date` YYYY-MM-DD);
 * conversations are sessions whose first message was that day, messages are visitors' messages.
 * `feedback`: ratings given in the period. `gaps`: questions retrieval found nothing for.
 * `defence`: the bot defence's counts of the period.
 */
export const insightsResponse = z.object({
  days: z.number().int(),
  daily: z.array(z.object({ date: z.string(), conversations: z.number().int(), messages: z.number().int() })),
  feedback: z.object({ up: z.number().int(), down: z.number().int() }),
  ratedAnswers: z.array(ratedAnswerSchema),
  gaps: z.array(insightQuestionSchema),
  topQuestions: z.array(insightQuestionSchema),
  /**
   * Bot defence in the period: new sessions asked for a proof-of-work (428) and proofs
   * refused (403: forged, expired, replayed, another address, too few bits). `required`: a proof
   * is asked before every new session (the assistant's botDefence is "always").
   */
  defence: z.object({ challenged: z.number().int(), refused: z.number().int(), required: z.boolean() }),
  /** Replies in the period a curated answer gave (exact) or guided (guide): 0 for data from before them. */
  curatedAnswers: z.object({ exact: z.number().int(), guided: z.number().int() }).optional(),
  /**
   * A person taking over (schemas/handoff.ts), per day of the period: handoffs visitors requested,
   * takeovers, and the median time from a request (or a takeover without one) to the person's
   * first message, in ms (null: no such reply that day). Absent from an older server.
   */
  handoffs: z
    .array(z.object({ date: z.string(), requested: z.number().int(), taken: z.number().int(), medianFirstReplyMs: z.number().nullable() }))
    .optional(),
  /** Leads visitors left (schemas/leads.ts), per day of the period. Absent from an older server. */
  leads: z.array(z.object({ date: z.string(), count: z.number().int() })).optional(),
});
export type InsightsResponse = z.infer<typeof insightsResponse>;
