/**
 * Curated answers (Q&A pairs) and text snippets: what an owner writes to fix an answer.
 *
 *   GET    /api/public-assistants/{id}/qa?q=&page=   → qaListResponse (newest first; q searches questions, variants, answers)
 *   POST   …/qa              qaBody                  → 201 qaResponse (a question already answered: 409 naming the pair)
 *   GET    …/qa/{qaId}                              → qaResponse (another owner's or an unknown pair: 404)
 *   PATCH  …/qa/{qaId}       qaPatchBody             → qaResponse
 *   DELETE …/qa/{qaId}                               → 204
 *   POST   …/qa/import       multipart `file` (CSV: question,answer,variants; variants split by "|")
 *                                                    → qaImportResponse (the good rows kept, each bad one reported)
 *   GET    …/qa/export                               → text/csv attachment, the same columns
 *   POST   …/texts           knowledgeTextBody       → 201 knowledgeTextResponse (listed with the files, deleted like them)
 *   GET    …/texts/{fileId}                          → knowledgeTextResponse (its title and content, to edit)
 *   PUT    …/texts/{fileId}  knowledgeTextBody       → knowledgeTextResponse (indexed again)
 *
 * A widget reply given from a pair carries `{ kind: "qa", qaId }` among its sources.
 */
import { z } from "zod";
import { knowledgeTextLimits, qaLimits } from "../constants";
import { qaMessages as M } from "../messages";
import { knowledgeFileSchema } from "./public-assistants";

const question = z
  .string({ error: M.questionRequired })
  .trim()
  .min(1, { error: M.questionRequired })
  .max(qaLimits.maxQuestionChars, { error: M.questionTooLong(qaLimits.maxQuestionChars) });

export const qaModeSchema = z.enum(qaLimits.modes, { error: M.modeInvalid(qaLimits.modes) });
export type QaMode = z.infer<typeof qaModeSchema>;
export const qaStrictnessSchema = z.enum(qaLimits.strictnessLevels, { error: M.strictnessInvalid(qaLimits.strictnessLevels) });
export type QaStrictness = z.infer<typeof qaStrictnessSchema>;

/** Other phrasings of the question: trimmed, empty ones dropped, duplicates (case-insensitive) once. */
export const qaVariantsSchema = z
  .array(z.string({ error: M.variantsList }).trim().max(qaLimits.maxQuestionChars, { error: M.variantTooLong(qaLimits.maxQuestionChars) }), {
    error: M.variantsList,
  })
  .transform((list) => {
    const seen = new Set<string>();
    return list.filter((v) => v.length > 0 && !seen.has(v.toLowerCase()) && seen.add(v.toLowerCase()));
  })
  .refine((list) => list.length <= qaLimits.maxVariants, { error: M.tooManyVariants(qaLimits.maxVariants) });

const answer = z
  .string({ error: M.answerRequired })
  .trim()
  .min(1, { error: M.answerRequired })
  .max(qaLimits.maxAnswerChars, { error: M.answerTooLong(qaLimits.maxAnswerChars) });

export const qaBody = z.object({
  question,
  answer,
  variants: qaVariantsSchema.default([]),
  mode: qaModeSchema.default(qaLimits.defaultMode),
});
export type QaBody = z.input<typeof qaBody>;

export const qaPatchBody = z.object({
  question: question.optional(),
  answer: answer.optional(),
  variants: qaVariantsSchema.optional(),
  mode: qaModeSchema.optional(),
});
export type QaPatchBody = z.input<typeof qaPatchBody>;

export const qaPairSchema = z.object({
  id: z.string(),
  question: z.string(),
  variants: z.array(z.string()),
  answer: z.string(),
  mode: qaModeSchema,
  /** Replies this pair gave (exact) or guided (guide). */
  uses: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type QaPair = z.infer<typeof qaPairSchema>;

export const qaResponse = z.object({ qa: qaPairSchema });
export const qaListResponse = z.object({ qa: z.array(qaPairSchema), total: z.number().int(), page: z.number().int(), totalPages: z.number().int() });
export type QaListResponse = z.infer<typeof qaListResponse>;
export const qaListQuery = z.object({
  q: z.string().trim().max(qaLimits.maxSearchChars).optional().default(""),
  page: z.coerce.number().int().min(1).optional().default(1),
});

/** One CSV row that was not imported: its line in the file (the header is line 1) and why. */
export const qaImportResponse = z.object({
  imported: z.number().int(),
  failed: z.array(z.object({ line: z.number().int(), error: z.string() })),
});
export type QaImportResponse = z.infer<typeof qaImportResponse>;

// ---- text snippets ----------------------------------------------------------------------------

export const knowledgeTextBody = z.object({
  title: z
    .string({ error: M.titleRequired })
    .trim()
    .min(1, { error: M.titleRequired })
    .max(knowledgeTextLimits.maxTitleChars, { error: M.titleTooLong(knowledgeTextLimits.maxTitleChars) }),
  content: z
    .string({ error: M.contentRequired })
    .trim()
    .min(1, { error: M.contentRequired })
    .max(knowledgeTextLimits.maxContentChars, { error: M.contentTooLong(knowledgeTextLimits.maxContentChars) }),
});
export type KnowledgeTextBody = z.input<typeof knowledgeTextBody>;

/** A snippet is a knowledge file (listed, searched and deleted with them) whose text can be edited. */
export const knowledgeTextResponse = z.object({ file: knowledgeFileSchema, title: z.string(), content: z.string() });
export type KnowledgeTextResponse = z.infer<typeof knowledgeTextResponse>;
