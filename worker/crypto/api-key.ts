import { assistantSecretKey, publicAssistantApiKey } from "../../contract";
import { toBase64Url } from "./encoding";
import { sha256Hex } from "./hash";

/** A new public assistant API key: `tala_pk_` + 32 random bytes, base64url (256 bits of entropy). */
export function generateApiKey(): string {
  return publicAssistantApiKey.prefix + toBase64Url(crypto.getRandomValues(new Uint8Array(publicAssistantApiKey.randomBytes)));
}

/** True when `value` has the shape of a key (checked before any lookup). */
export const isApiKeyShaped = (value: string) => publicAssistantApiKey.pattern.test(value);

/**
 * The lookup hash stored in `public_assistants.api_key_hash`. A plain SHA-256 suffices: the key
 * carries 256 random bits, so the hash cannot be reversed by guessing.
 */
export const hashApiKey = (apiKey: string) => sha256Hex(apiKey);

/** The form shown in lists: `tala_pk_` + the first and last 4 characters of the random part. */
export function maskApiKey(apiKey: string): string {
  const secret = apiKey.slice(publicAssistantApiKey.prefix.length);
  return `${publicAssistantApiKey.prefix}${secret.slice(0, 4)}…${secret.slice(-4)}`;
}

/** A new secret key: `tala_sk_` + 32 random bytes, base64url. Shown once; only its hash is kept. */
export function generateSecretKey(): string {
  return assistantSecretKey.prefix + toBase64Url(crypto.getRandomValues(new Uint8Array(assistantSecretKey.randomBytes)));
}

/** True when `value` has the shape of a secret key (checked before any lookup). */
export const isSecretKeyShaped = (value: string) => assistantSecretKey.pattern.test(value);

/** True when `value` starts like a secret key, whatever follows: never accepted where a page can see it. */
export const looksLikeSecretKey = (value: string) => value.startsWith(assistantSecretKey.prefix);

/** The form shown in lists: `tala_sk_` + the first and last 4 characters of the random part. */
export function maskSecretKey(secretKey: string): string {
  const secret = secretKey.slice(assistantSecretKey.prefix.length);
  return `${assistantSecretKey.prefix}${secret.slice(0, 4)}…${secret.slice(-4)}`;
}
