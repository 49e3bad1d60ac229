import { botDefence } from "../../contract";
import { fromBase64Url, timingSafeEqual, toBase64Url } from "../crypto/encoding";

/**
 * Proof-of-work before a widget session starts (contract `botDefence`). Pure: WebCrypto
 * only, runs in workerd and in Node, no import from `cloudflare:workers`.
 *
 * A challenge is self-contained and signed, so the server keeps no record of the ones it issued:
 *
 *   challenge = base64url(payload) "." base64url(HMAC-SHA256(key, payload))
 *   payload   = "v1|" assistantId "|" issuedAt "|" expiresAt "|" difficulty "|" salt "|" addressTag
 *
 * (times in seconds since 1970; `salt`: 16 random bytes, the challenge's id for the replay check;
 * `addressTag`: the first 16 bytes of HMAC(key, "address|" + the caller's address), so a solved
 * challenge is not portable to another address and the address is not readable from it.)
 * The widget finds a `nonce` such that SHA-256(UTF-8 `${challenge}:${nonce}`) starts with
 * `difficulty` zero bits. Verifying checks, cheapest first: sizes and alphabet, the signature
 * (WebCrypto's verify, constant time), the fields, the lifetime and the time window, assistant,
 * address (constant time), the nonce's length, then the bits. Spending a challenge once (replay)
 * is the hub's job.
 *
 * The time checks are exact, not trusted because signed: a challenge lives exactly
 * `botDefence.challengeTtlSeconds` (expiresAt - issuedAt) and has not expired, so no challenge
 * outlives the lifetime it is issued for, whatever a leaked key or a bug in the issuer wrote. Its
 * issued-at may be ahead of the verifier's clock by at most CLOCK_SKEW_SECONDS: issuer and
 * verifier can be two machines. A change of the lifetime refuses the challenges issued before it;
 * the 403 carries a fresh one, so an honest widget solves again.
 */

const VERSION = "v1";
const SALT_BYTES = 16;
const TAG_BYTES = 16;
/** Issued-at may be this far ahead of the verifier's clock (another machine's clock). */
const CLOCK_SKEW_SECONDS = 30;
/** More bits than this would take a phone minutes: a challenge claiming them was not ours. */
const MAX_DIFFICULTY = 32;
const encoder = new TextEncoder();
const base64Url = /^[A-Za-z0-9_-]+$/;

/** What the widget receives (the error body's `challenge`). */
export interface IssuedChallenge {
  challenge: string;
  difficulty: number;
}

/** Why a proof was refused (logged and tested; the caller answers one 403 for all of them). */
export type ProofRefusal = "malformed" | "signature" | "lifetime" | "expired" | "assistant" | "address" | "nonce" | "insufficient";

/** A proof that verified: `id` (the challenge's salt) is what the hub records as spent until `expiresAt` (ms). */
export type ProofCheck = { ok: true; id: string; expiresAt: number; difficulty: number } | { ok: false; reason: ProofRefusal };

/** The HMAC key of challenges, derived (HKDF-SHA256) from the server's secret, with a label of its own. */
export async function deriveChallengeKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("tala/bot-defence"), info: encoder.encode(`challenge/${VERSION}`) },
    material,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign", "verify"],
  );
}

async function hmac(key: CryptoKey, text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
}

const addressTag = async (key: CryptoKey, address: string) => (await hmac(key, `address|${address}`)).slice(0, TAG_BYTES);

/** A fresh challenge for `address` to start a session of `assistantId`, valid `botDefence.challengeTtlSeconds`. */
export async function issueChallenge(
  key: CryptoKey,
  input: { assistantId: string; address: string; difficulty: number; now?: number },
): Promise<IssuedChallenge> {
  const issuedAt = Math.floor((input.now ?? Date.now()) / 1000);
  const salt = toBase64Url(crypto.getRandomValues(new Uint8Array(SALT_BYTES)));
  const tag = toBase64Url(await addressTag(key, input.address));
  const payload = [VERSION, input.assistantId, issuedAt, issuedAt + botDefence.challengeTtlSeconds, input.difficulty, salt, tag].join("|");
  const challenge = `${toBase64Url(encoder.encode(payload))}.${toBase64Url(await hmac(key, payload))}`;
  return { challenge, difficulty: input.difficulty };
}

/** Leading zero bits of a byte string. */
export function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0;
  for (const byte of bytes) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** SHA-256 of `${challenge}:${nonce}` (UTF-8): the hash whose leading zero bits a proof shows. */
export async function proofHash(challenge: string, nonce: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(`${challenge}:${nonce}`)));
}

function decode(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return new Uint8Array(fromBase64Url(text));
  } catch {
    return null;
  }
}

const wholeNumber = (text: string | undefined) => (text !== undefined && /^\d{1,12}$/.test(text) ? Number(text) : null);

/**
 * Checks a solved challenge for `assistantId` from `address` at `now`. Never throws, whatever the
 * input (any size, any characters): a challenge longer than `botDefence.maxChallengeChars` or a
 * nonce longer than `maxNonceChars` is refused before any hashing.
 */
export async function verifyProof(
  key: CryptoKey,
  proof: { challenge: string; nonce: string },
  expected: { assistantId: string; address: string; now?: number },
): Promise<ProofCheck> {
  const refuse = (reason: ProofRefusal): ProofCheck => ({ ok: false, reason });
  const { challenge, nonce } = proof;
  if (typeof challenge !== "string" || typeof nonce !== "string") return refuse("malformed");
  if (nonce.length > botDefence.maxNonceChars) return refuse("nonce");
  if (challenge.length > botDefence.maxChallengeChars) return refuse("malformed");
  const [encoded, signature, ...rest] = challenge.split(".");
  if (!encoded || !signature || rest.length || !base64Url.test(encoded) || !base64Url.test(signature)) return refuse("malformed");
  const payloadBytes = decode(encoded);
  const signatureBytes = decode(signature);
  if (!payloadBytes || !signatureBytes) return refuse("malformed");
  if (!(await crypto.subtle.verify("HMAC", key, signatureBytes, payloadBytes))) return refuse("signature");

  // Signed by us from here on: the fields are ours, but parse them as carefully as any input.
  const fields = new TextDecoder().decode(payloadBytes).split("|");
  if (fields.length !== 7 || fields[0] !== VERSION) return refuse("malformed");
  const [, assistantId, issued, expires, bits, salt, tag] = fields;
  const issuedAt = wholeNumber(issued);
  const expiresAt = wholeNumber(expires);
  const difficulty = wholeNumber(bits);
  if (issuedAt === null || expiresAt === null || difficulty === null || difficulty > MAX_DIFFICULTY || !salt || !tag) return refuse("malformed");
  if (expiresAt - issuedAt !== botDefence.challengeTtlSeconds) return refuse("lifetime");
  const nowSeconds = (expected.now ?? Date.now()) / 1000;
  if (issuedAt > nowSeconds + CLOCK_SKEW_SECONDS || expiresAt <= nowSeconds) return refuse("expired");
  if (assistantId !== expected.assistantId) return refuse("assistant");
  const tagBytes = decode(tag);
  if (!tagBytes || !timingSafeEqual(tagBytes, await addressTag(key, expected.address))) return refuse("address");
  if (leadingZeroBits(await proofHash(challenge, nonce)) < difficulty) return refuse("insufficient");
  return { ok: true, id: salt, expiresAt: expiresAt * 1000, difficulty };
}

/**
 * The network a spike is counted on: an IPv4 address's /24, an IPv6 address's /48 (from
 * `clientIp`'s /64 form, `2001:db8:0:1::/64` → `2001:db8:0::/48`); anything else as is.
 */
export function spikeNetworkOf(address: string): string {
  const v4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/.exec(address);
  if (v4) return `${v4[1]}.0/24`;
  const v6 = /^([0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/.exec(address);
  if (v6) return `${v6[1]}::/48`;
  return address;
}
