import { eq } from "drizzle-orm";
import { normalizeOrigin, widgetMessages } from "../../../contract";
import { hashApiKey, isApiKeyShaped, looksLikeSecretKey } from "../../crypto/api-key";
import { publicAssistants } from "../../db/schema";
import { AppError, unauthorized } from "../../http/errors";
import type { ServiceContext } from "../context";
import { toPublicAssistantRecord, type PublicAssistantRecord } from "../public-assistants/to-public-assistant";

export interface WidgetCaller {
  assistant: PublicAssistantRecord;
  /** SHA-256 of the key the caller presented: the socket's room re-checks it on every message. */
  keyHash: string;
  /** The caller's normalised Origin, "" when it sent none. */
  origin: string;
}

/** How strictly the Origin header is checked against the assistant's allowlist. */
export type OriginRule =
  /** Widget calls and the socket: with an allowlist, an allowed Origin is required. */
  | "required"
  /** The OpenAI-compatible API: server-side clients send no Origin; a browser's must be allowed. */
  | "when-present";

/** 403: the caller's Origin is not on the assistant's allowlist (CORS does not reflect it). */
export class OriginNotAllowedError extends AppError {
  constructor() {
    super("FORBIDDEN", widgetMessages.originNotAllowed);
  }
}

/** The assistant whose key hash this is, read now (never cached: a regenerated key stops at once). */
export async function findAssistantByKeyHash(ctx: ServiceContext, keyHash: string): Promise<PublicAssistantRecord | null> {
  const [row] = await ctx.db.select().from(publicAssistants).where(eq(publicAssistants.apiKeyHash, keyHash)).limit(1);
  return row ? toPublicAssistantRecord(row) : null;
}

/** True when `origin` ("" for none) may use the assistant under `rule`. */
export function originAllowed(assistant: Pick<PublicAssistantRecord, "allowedOrigins">, origin: string, rule: OriginRule): boolean {
  if (!assistant.allowedOrigins.length) return true;
  if (!origin) return rule === "when-present";
  return assistant.allowedOrigins.includes(origin);
}

/**
 * Who may call the widget API or the socket, with the publishable key: the key must belong to an
 * assistant (an unknown or replaced key → 401; a secret key → 401 secretKeyInPage), the assistant must be active (403), and the
 * Origin must be on its allowlist when it has one (403). The lookup happens on every call.
 */
export async function authorizeWidgetCall({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { key: string | undefined; origin: string | undefined; rule: OriginRule };
}): Promise<WidgetCaller> {
  const { keyHash, origin } = await presentedKey(input);
  const assistant = await findAssistantByKeyHash(ctx, keyHash);
  if (!assistant) throw unauthorized(widgetMessages.unavailable);
  // The owner's contact line rides along (to a site the assistant allows): the widget shows it instead of a dead end.
  if (!assistant.isActive) throw new AppError("FORBIDDEN", widgetMessages.unavailable, originAllowed(assistant, origin, input.rule) ? contactOf(assistant) : {});
  if (!originAllowed(assistant, origin, input.rule)) throw new OriginNotAllowedError();
  return { assistant, keyHash, origin };
}

/** The owner's contact line for a refusal's body, when they set one. */
const contactOf = (assistant: PublicAssistantRecord) => {
  const contactLine = assistant.config.customization.contactLine;
  return contactLine ? { contactLine } : {};
};

/**
 * The checks that need no lookup (a key is present, not a secret key, shaped like a publishable
 * one), then its hash and the caller's normalised Origin ("" for none).
 */
export async function presentedKey(input: { key: string | undefined; origin: string | undefined }): Promise<{ keyHash: string; origin: string }> {
  const key = input.key?.trim() ?? "";
  if (!key) throw unauthorized(widgetMessages.keyMissing);
  // A secret key seen here was put in a page: refuse it by its prefix, without a lookup.
  if (looksLikeSecretKey(key)) throw unauthorized(widgetMessages.secretKeyInPage);
  if (!isApiKeyShaped(key)) throw unauthorized(widgetMessages.unavailable);
  const origin = input.origin ? (normalizeOrigin(input.origin) ?? input.origin) : "";
  return { keyHash: await hashApiKey(key), origin };
}
