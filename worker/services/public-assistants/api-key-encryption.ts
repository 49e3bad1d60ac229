import { publicAssistantServerMessages } from "../../../contract";
import { deriveSecretBoxKey, openSecret, sealSecret } from "../../crypto/secret-box";
import { isLocal, type Env } from "../../env";
import { AppError } from "../../http/errors";

/**
 * The AES-GCM key that seals public assistant API keys at rest, derived from ENCRYPTION_KEY.
 * Local mode without ENCRYPTION_KEY uses a fixed development secret (and says so once);
 * production without it refuses with 503, so no key is ever stored under a guessable secret.
 */

const PURPOSE = "public-assistant-api-key";
/** Local mode only. Known to everyone: keys sealed with it are as good as plaintext. */
const DEVELOPMENT_SECRET = "tala-local-development-encryption-key-do-not-use-in-production";
const MIN_SECRET_CHARS = 16;

const derived = new Map<string, Promise<CryptoKey>>();
let warnedAboutDevelopmentKey = false;

/**
 * The server's secret: ENCRYPTION_KEY, or in local mode without it the fixed development secret.
 * Every key derived from it labels its own purpose (HKDF info): API keys here, bot-defence
 * challenges (services/widget/bot-defence.ts). Throws 503 in production without one, or too short.
 */
export function encryptionSecret(env: Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">): string {
  let secret = env.ENCRYPTION_KEY?.trim();
  if (!secret) {
    if (!isLocal(env)) throw new AppError("SERVICE_UNAVAILABLE", publicAssistantServerMessages.encryptionKeyMissing);
    if (!warnedAboutDevelopmentKey) {
      warnedAboutDevelopmentKey = true;
      console.warn(
        JSON.stringify({
          warning: "ENCRYPTION_KEY is not set: public assistant API keys are encrypted with Tala's fixed development key (local mode only).",
        }),
      );
    }
    secret = DEVELOPMENT_SECRET;
  } else if (secret.length < MIN_SECRET_CHARS) {
    throw new AppError("SERVICE_UNAVAILABLE", publicAssistantServerMessages.encryptionKeyTooShort(MIN_SECRET_CHARS));
  }
  return secret;
}

async function sealingKey(env: Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">): Promise<CryptoKey> {
  const secret = encryptionSecret(env);
  let key = derived.get(secret);
  if (!key) {
    key = deriveSecretBoxKey(secret, PURPOSE);
    derived.set(secret, key);
  }
  return key;
}

/** The row's own id is bound to the ciphertext: a sealed key copied onto another assistant does not open. */
const context = (assistantId: string) => `public-assistant:${assistantId}`;

/** Seals an assistant's API key for `public_assistants.api_key_encrypted`. Throws 503 when no secret is configured. */
export async function encryptApiKey(env: Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">, assistantId: string, apiKey: string): Promise<string> {
  return sealSecret(await sealingKey(env), apiKey, context(assistantId));
}

/** Opens a sealed API key. Throws 503 when no secret is configured or the key was sealed under another one. */
export async function decryptApiKey(env: Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">, assistantId: string, stored: string): Promise<string> {
  const apiKey = await openSecret(await sealingKey(env), stored, context(assistantId));
  if (apiKey === null) throw new AppError("SERVICE_UNAVAILABLE", publicAssistantServerMessages.apiKeyUnreadable);
  return apiKey;
}

/**
 * Seals another of an assistant's secrets (its visitor identity secret) under the same
 * ENCRYPTION_KEY-derived key, bound to `context` (which names the assistant and the secret's
 * use). Throws 503 when no secret is configured, as `encryptApiKey` does.
 */
export async function sealAssistantSecret(env: Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">, context: string, value: string): Promise<string> {
  return sealSecret(await sealingKey(env), value, context);
}

/** Opens what `sealAssistantSecret` sealed; null when it was sealed under another key or context. Throws 503 when no secret is configured. */
export async function openAssistantSecret(env: Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">, context: string, stored: string): Promise<string | null> {
  return openSecret(await sealingKey(env), stored, context);
}
