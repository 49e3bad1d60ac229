import { fromBase64Url, toBase64Url } from "./encoding";

/**
 * Authenticated encryption of short secrets at rest (AES-256-GCM, WebCrypto). The AES key is
 * derived with HKDF-SHA256 from a server secret, so the secret itself can be any long string.
 * Stored form: `v1.<iv>.<ciphertext+tag>` (base64url). The caller's `context` is bound as
 * additional data: a ciphertext copied to another row (another context) does not decrypt.
 */

const VERSION = "v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();

/** Derives the AES-GCM key for `purpose` from `secret` (HKDF-SHA256). */
export async function deriveSecretBoxKey(secret: string, purpose: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("tala/secret-box"), info: encoder.encode(`${purpose}/${VERSION}`) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export async function sealSecret(key: CryptoKey, plaintext: string, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(context) }, key, encoder.encode(plaintext));
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

/** The plaintext, or null when the value is malformed, was sealed under another key or context, or was tampered with. */
export async function openSecret(key: CryptoKey, stored: string, context: string): Promise<string | null> {
  const [version, iv, sealed, ...rest] = stored.split(".");
  if (version !== VERSION || !iv || !sealed || rest.length) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: new Uint8Array(fromBase64Url(iv)), additionalData: encoder.encode(context) },
      key,
      new Uint8Array(fromBase64Url(sealed)),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
