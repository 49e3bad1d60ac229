/**
 * /api/public-assistants/{id}/secret-keys: an assistant's secret keys (`tala_sk_…`), for servers
 * and the OpenAI-compatible API. The owner creates, names and revokes them; a key's value is in
 * the creation answer only (Tala keeps its SHA-256). Times are epoch milliseconds.
 */
import { z } from "zod";
import { assistantSecretKey } from "../constants";
import { secretKeyMessages as M } from "../messages";

/** POST …/secret-keys { name }: 1–80 characters once trimmed. */
export const createSecretKeyBody = z.object({
  name: z
    .string({ error: (issue) => (issue.input === undefined ? M.nameRequired : M.nameMustBeText) })
    .trim()
    .min(1, { error: M.nameRequired })
    .max(assistantSecretKey.maxNameChars, { error: M.nameTooLong(assistantSecretKey.maxNameChars) }),
});
export type CreateSecretKeyBody = z.infer<typeof createSecretKeyBody>;

/** A secret key as listed: never its value, only the masked form (`tala_sk_ab12…wxyz`). */
export const secretKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  masked: z.string(),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable(),
});
export type SecretKey = z.infer<typeof secretKeySchema>;

/** GET …/secret-keys: the keys in use, newest first (revoked keys are not listed). */
export const secretKeyListResponse = z.object({ secretKeys: z.array(secretKeySchema) });

/** POST …/secret-keys → 201: the key's value, shown this once. */
export const createdSecretKeyResponse = z.object({
  secretKey: secretKeySchema,
  key: z.string().regex(assistantSecretKey.pattern),
});
export type CreatedSecretKeyResponse = z.infer<typeof createdSecretKeyResponse>;
