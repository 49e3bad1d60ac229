import { publicAssistantServerMessages, webhookLimits, webhookMessages as M } from "../../../contract";
import { isGone, type Gone } from "../../assistant/gone";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { AppError, notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { assistantAudit, recordAudit } from "../team/audit";

/** What every webhook service gets: the signed-in owner and the assistant's id from the path. */
export type WebhookOwnerInput = { userId: string; assistantId: string };

/**
 * The owned assistant's `webhooks()` facet (ownership checked in D1: another owner's assistant is
 * a 404), for one call (a failed call is a retryable 503).
 */
export async function ownedWebhooks(ctx: ServiceContext, input: WebhookOwnerInput) {
  const assistant = await requirePublicAssistant({ ctx, input });
  return reachAssistantHub(ctx.env, assistant.id).webhooks();
}

/** An address without its query or fragment: some services put a token there. */
function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "";
  }
}

/** Records a webhook change in the workspace's audit log, by its address (never its secret). */
export async function auditWebhook(ctx: ServiceContext, input: WebhookOwnerInput, action: "webhook.created" | "webhook.deleted" | "webhook.secret_rotated", url: string) {
  const assistant = await requirePublicAssistant({ ctx, input });
  await recordAudit(ctx, assistantAudit(ctx, assistant, action, { target: withoutQuery(url) }));
}

type Refusal = { ok: false; reason: string };

/** The facet's answer, or the AppError it means: `gone` and `not-found` are 404s, `failed` a retryable 503. */
export function unwrapWebhook<R>(answer: R): Extract<Exclude<R, Gone>, { ok: true }> {
  const result = answer as unknown as { ok: true } | Refusal | Gone;
  if (isGone(result)) throw notFound();
  if (result.ok) return result as Extract<Exclude<R, Gone>, { ok: true }>;
  if (result.reason === "not-found") throw new AppError("NOT_FOUND", M.webhookNotFound);
  if (result.reason === "no-delivery") throw new AppError("NOT_FOUND", M.deliveryNotFound);
  if (result.reason === "too-many") throw new AppError("CONFLICT", M.tooMany(webhookLimits.maxPerAssistant));
  throw new AppError("SERVICE_UNAVAILABLE", publicAssistantServerMessages.assistantBusy, { retryAfter: 1 });
}
