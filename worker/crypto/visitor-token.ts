import { visitorIdentity, visitorIdentityMessages as V, visitorTokenClaims, type VerifiedVisitor } from "../../contract";
import { toBase64Url } from "./encoding";

/**
 * Signed visitor identity: the token a site's server makes for its signed-in user, a
 * compact JWS (JWT) signed with HMAC-SHA256 (`alg: "HS256"`) under the assistant's identity
 * secret. The key is the secret's text as UTF-8 bytes, whole (`tala_vs_…` included), which is
 * what `createHmac("sha256", secret)` and `hmac.new(secret.encode(), …)` use.
 *
 * Pure (WebCrypto only, no `cloudflare:workers`): unit-tested in Node. Bounded: the token is at
 * most `visitorIdentity.maxTokenChars`, each part is checked to be base64url before it is
 * decoded, and the signature is checked (crypto.subtle.verify: constant time) before the claims
 * are read. Only HS256 is accepted: `none`, HS512, RS256… are refused, whatever the header says.
 */

export type VisitorTokenResult = { ok: true; visitor: VerifiedVisitor } | { ok: false; error: string };

const encoder = new TextEncoder();
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** An HMAC-SHA256 tag is 32 bytes: 43 base64url characters. */
const SIGNATURE_CHARS = 43;

/** The HMAC key of an identity secret (its whole text, UTF-8). */
export function importIdentitySecret(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** A new identity secret: `tala_vs_` + 32 random bytes, base64url. */
export const generateIdentitySecret = () => visitorIdentity.secretPrefix + toBase64Url(crypto.getRandomValues(new Uint8Array(32)));

/** How an identity secret is shown after creation: the prefix and the first and last four characters. */
export function maskIdentitySecret(secret: string): string {
  const body = secret.slice(visitorIdentity.secretPrefix.length);
  return `${visitorIdentity.secretPrefix}${body.slice(0, 4)}…${body.slice(-4)}`;
}

/** base64url → bytes; null when the text is not base64url (no padding, no other alphabet). */
function decodePart(part: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(part) || part.length % 4 === 1) return null;
  try {
    const binary = atob(part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "="));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** A JSON object from a base64url part; null when it is anything else. */
function decodeJsonObject(part: string): Record<string, unknown> | null {
  const bytes = decodePart(part);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Verifies a visitor token against the assistant's secrets, in order (the current one, then the
 * rotated-out one while its grace lasts), at `now` (ms). On success the visitor is the token's
 * `sub` with its optional `name` and `email`. Refusals carry the contract's message:
 * `tokenInvalid` (malformed, not HS256, signed with no secret given, `iat`/`nbf` in the future),
 * `tokenClaims` (no usable `sub` or `exp`), `tokenExpired`, `tokenTooLong` (expires more than
 * `maxLifetimeSeconds` ahead, or after its own `iat`), `noSecret` (no secret given). Never throws.
 */
export async function verifyVisitorToken(token: string, keys: readonly CryptoKey[], now: number = Date.now()): Promise<VisitorTokenResult> {
  if (!keys.length) return { ok: false, error: V.noSecret };
  const invalid = { ok: false as const, error: V.tokenInvalid };
  if (typeof token !== "string" || token.length > visitorIdentity.maxTokenChars) return invalid;
  const parts = token.trim().split(".");
  if (parts.length !== 3) return invalid;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  if (signaturePart.length !== SIGNATURE_CHARS) return invalid;
  const header = decodeJsonObject(headerPart);
  if (!header || header.alg !== "HS256" || (header.typ !== undefined && header.typ !== "JWT") || header.crit !== undefined) return invalid;
  const signature = decodePart(signaturePart);
  if (!signature || signature.length !== 32) return invalid;
  const signed = encoder.encode(`${headerPart}.${payloadPart}`);
  let verified = false;
  try {
    for (const key of keys) {
      if (await crypto.subtle.verify("HMAC", key, signature, signed)) {
        verified = true;
        break;
      }
    }
  } catch {
    return invalid;
  }
  if (!verified) return invalid;

  const payload = decodeJsonObject(payloadPart);
  if (!payload) return invalid;
  const claims = visitorTokenClaims.safeParse(payload);
  if (!claims.success) return { ok: false, error: V.tokenClaims };
  const { sub, exp, name, email, iat, nbf } = claims.data;
  const nowSeconds = Math.floor(now / 1000);
  const skew = visitorIdentity.clockSkewSeconds;
  const maxLifetime = visitorIdentity.maxLifetimeSeconds;
  if (exp < nowSeconds - skew) return { ok: false, error: V.tokenExpired };
  if (exp > nowSeconds + maxLifetime + skew || (iat !== undefined && exp - iat > maxLifetime)) {
    return { ok: false, error: V.tokenTooLong(maxLifetime / 3600) };
  }
  if ((iat !== undefined && iat > nowSeconds + skew) || (nbf !== undefined && nbf > nowSeconds + skew)) return invalid;
  const visitor: VerifiedVisitor = { id: sub };
  const cleanName = name?.trim();
  const cleanEmail = email?.trim();
  if (cleanName) visitor.name = cleanName;
  if (cleanEmail) visitor.email = cleanEmail;
  return { ok: true, visitor };
}

/** Signs claims the way a site's server does (tests, the dashboard's examples, benchmarks). */
export async function signVisitorToken(claims: Record<string, unknown>, secret: string, header: Record<string, unknown> = { alg: "HS256", typ: "JWT" }): Promise<string> {
  const part = (value: unknown) => toBase64Url(encoder.encode(JSON.stringify(value)));
  const data = `${part(header)}.${part(claims)}`;
  const tag = await crypto.subtle.sign("HMAC", await importIdentitySecret(secret), encoder.encode(data));
  return `${data}.${toBase64Url(new Uint8Array(tag))}`;
}
