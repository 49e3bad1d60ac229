/**
 * Signed webhooks: the owner's endpoints, the events, their deliveries. Limits: `webhookLimits`;
 * messages: `webhookMessages`.
 *
 * Owner (signed in, the assistant's owner; another owner's ids answer 404):
 *   GET    /api/public-assistants/{id}/webhooks                         → webhooksResponse (never a secret)
 *   POST   /api/public-assistants/{id}/webhooks  webhookCreateBody      → 201 { webhook, secret } (the secret shown once)
 *   PATCH  …/webhooks/{webhookId}  webhookPatchBody                     → { webhook } (enabled: true turns a disabled one on again)
 *   DELETE …/webhooks/{webhookId}                                       → 204
 *   POST   …/webhooks/{webhookId}/test                                  → 202 { delivery } (a `webhook.test` event to that endpoint)
 *   GET    …/webhooks/{webhookId}/deliveries                            → deliveriesResponse (newest first)
 *   POST   …/webhooks/{webhookId}/deliveries/{deliveryId}/resend        → 202 { delivery } (the same event id, a new delivery)
 *   POST   …/webhooks/{webhookId}/rotate-secret                         → { secret } (the old one stops at once)
 *
 * Each delivery: POST of the JSON `webhookEventSchema` to the URL, headers `Content-Type:
 * application/json`, `User-Agent: Tala-Webhooks/1`, `Tala-Event-Id: <event id>` (the same on every
 * retry and resend: receivers deduplicate on it), and `Tala-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256(secret, "<t>.<raw body>")>` computed at each attempt.
 */
import { z } from "zod";
import { webhookLimits as L } from "../constants";
import { webhookMessages as M } from "../messages";

export const webhookEventTypeSchema = z.enum(L.events);

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(webhookEventTypeSchema),
  enabled: z.boolean(),
  /** Why it is off when the server turned it off (webhookMessages.disabledReason); absent when on or turned off by the owner. */
  disabledReason: z.string().optional(),
  /** The first failure of the failing streak now running (absent when the last delivery succeeded). */
  failingSince: z.number().optional(),
  /** The newest finished delivery's outcome, for the row. */
  lastDelivery: z.object({ at: z.number(), ok: z.boolean(), status: z.number().int().nullable() }).optional(),
  /** `whsec_ab12…` : enough to tell secrets apart, never the secret. */
  secretHint: z.string(),
  createdAt: z.number(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhooksResponse = z.object({ webhooks: z.array(webhookSchema), events: z.array(webhookEventTypeSchema) });
export type WebhooksResponse = z.infer<typeof webhooksResponse>;

const url = z.string({ error: M.urlRequired }).trim().min(1, { error: M.urlRequired }).max(L.maxUrlChars, { error: M.urlTooLong(L.maxUrlChars) });
const events = z
  .array(z.enum(L.events, { error: M.eventInvalid(L.events) }), { error: M.eventsRequired })
  .min(1, { error: M.eventsRequired })
  .transform((list) => [...new Set(list)]);
const description = z.string({ error: M.descriptionTooLong(L.maxDescriptionChars) }).trim().max(L.maxDescriptionChars, { error: M.descriptionTooLong(L.maxDescriptionChars) });

/** The URL's rules beyond its form (https in production, public addresses only) are the worker's (as website sources'). */
export const webhookCreateBody = z.object({ url, events, description: description.optional().default("") });
export type WebhookCreateBody = z.input<typeof webhookCreateBody>;
export const webhookPatchBody = z.object({
  url: url.optional(),
  events: events.optional(),
  description: description.optional(),
  enabled: z.boolean({ error: M.enabledInvalid }).optional(),
});
export type WebhookPatchBody = z.input<typeof webhookPatchBody>;

export const webhookCreatedResponse = z.object({ webhook: webhookSchema, secret: z.string() });
export const webhookResponse = z.object({ webhook: webhookSchema });
export const webhookSecretResponse = z.object({ secret: z.string() });

export const deliveryStatuses = ["pending", "retrying", "delivered", "failed"] as const;
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.union([webhookEventTypeSchema, z.literal(L.testEvent)]),
  createdAt: z.number(),
  status: z.enum(deliveryStatuses),
  attempts: z.number().int(),
  /** The last attempt: its HTTP status (null: no response), how long it took, the response's first bytes, or why it failed. */
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  response: z.string(),
  error: z.string().optional(),
  lastAttemptAt: z.number().nullable(),
  nextAttemptAt: z.number().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const deliveriesResponse = z.object({ deliveries: z.array(webhookDeliverySchema) });
export type DeliveriesResponse = z.infer<typeof deliveriesResponse>;
export const deliveryResponse = z.object({ delivery: webhookDeliverySchema });

// ---- What a receiver gets -----------------------------------------------------------------

const visitor = z.object({ id: z.string(), name: z.string().optional(), email: z.string().optional() }).optional();

/** `data` of each event type. Times are epoch milliseconds; texts as saved. */
export const webhookEventData = {
  "conversation.started": z.object({ sessionId: z.string(), startedAt: z.number(), origin: z.string(), referrer: z.string(), locale: z.string(), visitor }),
  "message.answered": z.object({
    sessionId: z.string(),
    question: z.object({ id: z.string(), content: z.string(), createdAt: z.number() }),
    answer: z.object({
      id: z.string(),
      content: z.string(),
      createdAt: z.number(),
      sources: z.array(z.object({ name: z.string(), url: z.string().optional() })),
      /** "model", a curated answer ("qa"), or the assistant's offer of a person ("handoff"). */
      kind: z.string().optional(),
    }),
    /** Set when a text was cut to keep the body under webhookLimits.maxBodyBytes. */
    truncated: z.boolean().optional(),
    visitor,
  }),
  "lead.created": z.object({
    leadId: z.string(),
    sessionId: z.string(),
    createdAt: z.number(),
    /** Each field's key → value (name, email, phone, company, text1…). */
    fields: z.record(z.string(), z.string()),
    labels: z.record(z.string(), z.string()),
    trigger: z.string().optional(),
    visitor,
  }),
  "feedback.created": z.object({ sessionId: z.string(), messageId: z.string(), rating: z.enum(["up", "down"]), createdAt: z.number() }),
  "handoff.requested": z.object({ sessionId: z.string(), requestedAt: z.number(), question: z.string(), emailLeft: z.boolean(), visitor }),
  "webhook.test": z.object({ webhookId: z.string(), message: z.string() }),
} as const;

export const webhookEventSchema = z.object({
  id: z.string(),
  type: z.union([webhookEventTypeSchema, z.literal(L.testEvent)]),
  createdAt: z.number(),
  assistantId: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
