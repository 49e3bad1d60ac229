import { webhookLimits } from "../../contract";
import { toBase64Url, toHex, timingSafeEqual } from "./encoding";

/**
 * Webhook signatures (contract/schemas/webhooks.ts): `Tala-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256(secret, "<t>.<raw body>")>`, the HMAC keyed by the whole secret string
 * (`whsec_…`, UTF-8). Made at every attempt (a fresh `t`); the README's verifiers (Node and
 * Python) check the same rule, with a tolerance of webhookLimits.signatureToleranceSeconds.
 * Pure WebCrypto: runs in workerd and in Node.
 */

const encoder = new TextEncoder();

/** A new signing secret: `whsec_` and 32 random bytes, base64url. */
export const generateWebhookSecret = () => webhookLimits.secretPrefix + toBase64Url(crypto.getRandomValues(new Uint8Array(32)));

/** What the owner sees after creation: the prefix and the first four characters (`whsec_ab12…`). */
export const webhookSecretHint = (secret: string) => `${secret.slice(0, webhookLimits.secretPrefix.length + 4)}…`;

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message))));
}

/** The `Tala-Signature` header of `body` signed at `timestampSeconds`. */
export async function signWebhook(secret: string, body: string, timestampSeconds: number): Promise<string> {
  const t = Math.floor(timestampSeconds);
  return `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}`;
}

/**
 * A receiver's check (the README's rule): the header parses, its `t` is within `toleranceSeconds`
 * of `nowSeconds`, and one of its `v1` values is the HMAC of `"<t>.<body>"` (compared in constant time).
 */
export async function verifyWebhook(
  secret: string,
  body: string,
  header: string,
  nowSeconds: number,
  toleranceSeconds: number = webhookLimits.signatureToleranceSeconds,
): Promise<boolean> {
  let t: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.split("=", 2).map((s) => s.trim());
    if (key === "t" && value && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === "v1" && value) signatures.push(value.toLowerCase());
  }
  if (t === null || !signatures.length || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = encoder.encode(await hmacHex(secret, `${t}.${body}`));
  return signatures.some((s) => timingSafeEqual(encoder.encode(s), expected));
}
