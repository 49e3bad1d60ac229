/** Byte ↔ text encodings shared by the crypto helpers. Pure: runs in workerd and in Node. */

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Throws on malformed input, so a corrupt stored value never decodes to something plausible. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export const toBase64Url = (bytes: Uint8Array) => toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Compares two byte strings in time that depends only on their lengths, so a mismatch does not
 * reveal how many leading bytes were right.
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Constant-time comparison of two strings (compared as UTF-8 bytes). */
export const timingSafeEqualText = (a: string, b: string) =>
  timingSafeEqual(new TextEncoder().encode(a), new TextEncoder().encode(b));

/** Reverses `toBase64Url`; throws on malformed input. */
export const fromBase64Url = (text: string) => fromBase64(text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "="));
