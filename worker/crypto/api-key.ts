import { assistantSecretKey, publicAssistantApiKey } from "../../contract";
import { toBase64Url } from "./encoding";
import { sha256Hex } from "./hash";

/** The two kinds of assistant keys share one form: a prefix and random bytes, base64url. */
type KeyKind = { prefix: string; randomBytes: number };

const generate = (kind: KeyKind) => kind.prefix + toBase64Url(crypto.getRandomValues(new Uint8Array(kind.randomBytes)));

/** The form shown in lists: the prefix + the first and last 4 characters of the random part. */
function mask(kind: KeyKind, key: string): string {
  const secret = key.slice(kind.prefix.length);
  return `${kind.prefix}${secret.slice(0, 4)}…${secret.slice(-4)}`;
}

/** A new publishable key: `tala_pk_` + 32 random bytes, base64url (256 bits of entropy). */
export const generateApiKey = () => generate(publicAssistantApiKey);

/** True when `value` has the shape of a key (checked before any lookup). */
export const isApiKeyShaped = (value: string) => publicAssistantApiKey.pattern.test(value);

/**
 * The lookup hash of either kind of key (`public_assistants.api_key_hash`,
 * `assistant_secret_keys.key_hash`). A plain SHA-256 suffices: the key carries 256 random bits,
 * so the hash cannot be reversed by guessing.
 */
export const hashApiKey = (apiKey: string) => sha256Hex(apiKey);

export const maskApiKey = (apiKey: string) => mask(publicAssistantApiKey, apiKey);

/** A new secret key: `tala_sk_` + 32 random bytes, base64url. Shown once; only its hash is kept. */
export const generateSecretKey = () => generate(assistantSecretKey);

/** True when `value` has the shape of a secret key (checked before any lookup). */
export const isSecretKeyShaped = (value: string) => assistantSecretKey.pattern.test(value);

/** True when `value` starts like a secret key, whatever follows: never accepted where a page can see it. */
export const looksLikeSecretKey = (value: string) => value.startsWith(assistantSecretKey.prefix);

export const maskSecretKey = (secretKey: string) => mask(assistantSecretKey, secretKey);
