import { auth } from "../../contract";
import { fromBase64, timingSafeEqual, toBase64 } from "./encoding";

/**
 * Password hashing with PBKDF2-SHA256 (the slow KDF WebCrypto offers in workerd).
 * Stored as `pbkdf2-sha256$<iterations>$<b64 salt>$<b64 hash>`: verification reads the
 * parameters from the string, so the work factor can be raised later without breaking old
 * hashes, and `needsRehash` tells the sign-in path when to upgrade one.
 */

const ALGORITHM = "pbkdf2-sha256";
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** workerd refuses PBKDF2 above this; a stored value asking for more is corrupt or hostile. */
const MAX_ITERATIONS = 100_000;

interface ParsedHash {
  iterations: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

async function derive(password: string, salt: Uint8Array, iterations: number, bytes: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    bytes * 8,
  );
  return new Uint8Array(bits);
}

function parse(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 4 || parts[0] !== ALGORITHM) return null;
  const iterations = Number(parts[1]);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) return null;
  try {
    const salt = fromBase64(parts[2]!);
    const hash = fromBase64(parts[3]!);
    if (salt.length < 8 || hash.length < 16) return null;
    return { iterations, salt, hash };
  } catch {
    return null;
  }
}

/** Hashes a password with a fresh random salt and the current work factor. */
export async function hashPassword(password: string, iterations: number = auth.passwordKdfIterations): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations, HASH_BYTES);
  return `${ALGORITHM}$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

/** True when `password` matches `stored`. A malformed stored value never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.iterations, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

/** True when `stored` was made with weaker parameters than today's (or cannot be read). */
export function needsRehash(stored: string, iterations: number = auth.passwordKdfIterations): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.iterations < iterations || parsed.hash.length < HASH_BYTES || parsed.salt.length < SALT_BYTES;
}

let dummyHash: Promise<string> | undefined;
/**
 * Runs the KDF against a throwaway hash and returns false, so a sign-in for an unknown address
 * costs as long as one with a wrong password and timing does not reveal which accounts exist.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummyHash ??= hashPassword("tala-timing-equaliser");
  await verifyPassword(password, await dummyHash);
  return false;
}
