import { toBase64Url } from "./encoding";

export const TOKEN_PREFIX = "tala_";

/** A new bearer token: `tala_` + 32 random bytes, base64url (256 bits of entropy). */
export function generateToken(): string {
  return TOKEN_PREFIX + toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * A uniformly random string of `length` decimal digits. Draws 32-bit values and rejects those
 * at or above the largest multiple of 10^length, so `value % 10^length` has no modulo bias.
 */
export function generateNumericCode(length: number): string {
  if (!Number.isInteger(length) || length < 1 || length > 9) throw new RangeError("code length must be 1..9");
  const modulus = 10 ** length;
  const limit = Math.floor(2 ** 32 / modulus) * modulus;
  const draw = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(draw);
    const value = draw[0]!;
    if (value < limit) return String(value % modulus).padStart(length, "0");
  }
}

/**
 * A uniformly random string of `length` characters of `alphabet` (at most 256 distinct
 * characters). Draws bytes and rejects those at or above the largest multiple of the alphabet's
 * size, so every character is equally likely (no modulo bias).
 */
export function generateAlphabetCode(length: number, alphabet: string): string {
  const size = alphabet.length;
  if (!Number.isInteger(length) || length < 1 || length > 256) throw new RangeError("code length must be 1..256");
  if (size < 2 || size > 256 || new Set(alphabet).size !== size) throw new RangeError("alphabet must hold 2..256 distinct characters");
  const limit = Math.floor(256 / size) * size;
  let out = "";
  const draw = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(draw);
    for (const byte of draw) {
      if (byte >= limit) continue;
      out += alphabet[byte % size];
      if (out.length === length) break;
    }
  }
  return out;
}
