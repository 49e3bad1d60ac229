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
