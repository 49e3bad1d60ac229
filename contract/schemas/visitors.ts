/**
 * Know your visitors: signed visitor identity, proof-of-work, monthly budgets.
 *
 * Widget (publishable key in X-Assistant-Key, like every widget call):
 *   POST /api/widget/sessions { …, userToken?, proof? }      (schemas/widget.ts) 201/200 | 401 token | 428 challenge | 403 proof
 *   GET  /api/widget/conversations   + X-Visitor-Token       → visitorConversationsResponse
 *   GET  /api/widget/sessions/{id}   + X-Visitor-Token when the session is a verified visitor's
 *   socket /parties/widget/{id}?key=…&visitorToken=…         (when the session is a verified visitor's)
 * Owner (session cookie / bearer, the assistant's owner only):
 *   GET    /api/public-assistants/{id}/identity-secret                 → identitySecretStatus
 *   POST   /api/public-assistants/{id}/identity-secret  rotateIdentitySecretBody → identitySecretCreated (201)
 *          (creates the first secret, or rotates: the current one keeps verifying for `graceHours`)
 *   DELETE /api/public-assistants/{id}/identity-secret/previous        → identitySecretStatus (ends the grace now)
 *   GET    /api/public-assistants/{id}/chats?user=<sub>                 history filtered by verified user
 *   GET    /api/budgets                                                → budgetsResponse
 *   PUT    /api/budgets   ownerBudgetBody                              → budgetsResponse (the all-assistants budget)
 * An assistant's own budget, bot-defence mode and limit scope are fields of its config
 * (publicAssistantBody.config: monthlyBudget, budgetAction, botDefence, visitorLimitScope).
 */
import { z } from "zod";
import { botDefence, budgets, visitorIdentity } from "../constants";
import { budgetMessages as B, visitorIdentityMessages as V } from "../messages";
import { cleanText } from "../text";

// ---- Signed visitor identity ------------------------------------------------------------------

/** The token as the widget sends it: a compact JWT (three base64url parts), not verified here. */
export const visitorTokenSchema = z
  .string({ error: V.tokenInvalid })
  .trim()
  .max(visitorIdentity.maxTokenChars, { error: V.tokenInvalid })
  .regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, { error: V.tokenInvalid });

/**
 * The claims Tala reads from a verified token (others are ignored). The texts are cleaned here, the
 * one place a visitor's identity enters: what is stored, shown to the owner and exported is clean.
 */
export const visitorTokenClaims = z.object({
  sub: z.preprocess(
    cleanText,
    z.string({ error: V.tokenClaims }).trim().min(1, { error: V.tokenClaims }).max(visitorIdentity.maxSubChars, { error: V.tokenClaims }),
  ),
  exp: z.number({ error: V.tokenClaims }).int({ error: V.tokenClaims }),
  name: z.preprocess(cleanText, z.string().max(visitorIdentity.maxNameChars)).optional().catch(undefined),
  email: z.preprocess(cleanText, z.string().max(visitorIdentity.maxEmailChars)).optional().catch(undefined),
  iat: z.number().optional().catch(undefined),
  nbf: z.number().optional().catch(undefined),
});
export type VisitorTokenClaims = z.infer<typeof visitorTokenClaims>;

/** Who a verified conversation belongs to: `id` is the token's `sub`. */
export const verifiedVisitorSchema = z.object({ id: z.string(), name: z.string().optional(), email: z.string().optional() });
export type VerifiedVisitor = z.infer<typeof verifiedVisitorSchema>;

/** One of a verified visitor's conversations: `title` is its first question. */
export const visitorConversationSchema = z.object({
  sessionId: z.string(),
  title: z.string(),
  lastMessageAt: z.number(),
  messageCount: z.number().int(),
});
export const visitorConversationsResponse = z.object({
  visitor: verifiedVisitorSchema,
  /** Newest first, at most visitorIdentity.listedConversations. */
  conversations: z.array(visitorConversationSchema),
});
export type VisitorConversationsResponse = z.infer<typeof visitorConversationsResponse>;

/** A secret as the owner sees it after creation: never the secret itself. */
const identitySecretInfo = z.object({ masked: z.string(), createdAt: z.number() });
export const identitySecretStatus = z.object({
  current: identitySecretInfo.nullable(),
  /** The rotated-out secret, still verifying until `expiresAt`. */
  previous: identitySecretInfo.extend({ expiresAt: z.number() }).nullable(),
});
export type IdentitySecretStatus = z.infer<typeof identitySecretStatus>;

export const rotateIdentitySecretBody = z.object({
  graceHours: z
    .number({ error: V.graceInvalid(visitorIdentity.graceHours.options) })
    .refine((h) => (visitorIdentity.graceHours.options as readonly number[]).includes(h), { error: V.graceInvalid(visitorIdentity.graceHours.options) })
    .optional()
    .default(visitorIdentity.graceHours.default),
});
/** 201: the new secret in full, shown this once. */
export const identitySecretCreated = identitySecretStatus.extend({ secret: z.string() });
export type IdentitySecretCreated = z.infer<typeof identitySecretCreated>;

// ---- Proof-of-work ----------------------------------------------------------------------------

/** The solved challenge sent back with POST /api/widget/sessions. */
export const proofOfWorkSchema = z.object({
  challenge: z.string().max(botDefence.maxChallengeChars),
  nonce: z.string().max(botDefence.maxNonceChars),
});
export type ProofOfWork = z.infer<typeof proofOfWorkSchema>;

// ---- Budgets ----------------------------------------------------------------------------------

export const budgetLimitSchema = z
  .number({ error: B.limitInvalid(budgets.min, budgets.max) })
  .int({ error: B.limitInvalid(budgets.min, budgets.max) })
  .min(budgets.min, { error: B.limitInvalid(budgets.min, budgets.max) })
  .max(budgets.max, { error: B.limitInvalid(budgets.min, budgets.max) })
  .nullable();
export const budgetActionSchema = z.enum(budgets.actions, { error: B.actionInvalid(budgets.actions) });

/** A budget's state this month (UTC): `limit` null = no budget. `paused` when used up and the action is pause. */
export const budgetUsageSchema = z.object({
  limit: z.number().int().nullable(),
  action: budgetActionSchema,
  used: z.number().int(),
  /** "2026-11" */
  month: z.string(),
  paused: z.boolean(),
});
export type BudgetUsage = z.infer<typeof budgetUsageSchema>;

export const budgetsResponse = z.object({
  /** Across all the owner's assistants. */
  owner: budgetUsageSchema,
  assistants: z.array(budgetUsageSchema.extend({ assistantId: z.string(), name: z.string() })),
});
export type BudgetsResponse = z.infer<typeof budgetsResponse>;

export const ownerBudgetBody = z.object({ limit: budgetLimitSchema, action: budgetActionSchema.optional() });
export type OwnerBudgetBody = z.input<typeof ownerBudgetBody>;
