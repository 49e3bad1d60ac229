import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { visitorIdentity, visitorIdentityMessages as V } from "../../contract";
import { toBase64Url } from "./encoding";
import { generateIdentitySecret, importIdentitySecret, maskIdentitySecret, signVisitorToken, verifyVisitorToken } from "./visitor-token";

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const nowS = NOW / 1000;
const SECRET = "tala_vs_test-secret-of-the-assistant-0123456789abcdef";
const OTHER = "tala_vs_another-assistants-secret-0123456789abcdefgh";
const b64 = (value: unknown) => toBase64Url(new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value)));

async function verify(token: string, secrets: string[] = [SECRET], now = NOW) {
  return verifyVisitorToken(token, await Promise.all(secrets.map(importIdentitySecret)), now);
}

describe("visitor identity tokens (HS256)", () => {
  it("accepts a valid token and returns sub, name and e-mail", async () => {
    const token = await signVisitorToken({ sub: "user-42", name: "Amina", email: "amina@example.com", exp: nowS + 3600, iat: nowS }, SECRET);
    expect(await verify(token)).toEqual({ ok: true, visitor: { id: "user-42", name: "Amina", email: "amina@example.com" } });
    // name and e-mail are optional; a header without typ is fine.
    const bare = await signVisitorToken({ sub: "u", exp: nowS + 60 }, SECRET, { alg: "HS256" });
    expect(await verify(bare)).toEqual({ ok: true, visitor: { id: "u" } });
  });

  it("accepts a token made by node:crypto the way the README shows", async () => {
    const header = b64({ alg: "HS256", typ: "JWT" });
    const payload = b64({ sub: "site-user-7", exp: nowS + 600 });
    const signature = createHmac("sha256", SECRET).update(`${header}.${payload}`).digest("base64url");
    expect(await verify(`${header}.${payload}.${signature}`)).toMatchObject({ ok: true, visitor: { id: "site-user-7" } });
  });

  it("refuses an expired token, within the clock skew only", async () => {
    const skew = visitorIdentity.clockSkewSeconds;
    expect(await verify(await signVisitorToken({ sub: "u", exp: nowS - skew - 1 }, SECRET))).toEqual({ ok: false, error: V.tokenExpired });
    expect((await verify(await signVisitorToken({ sub: "u", exp: nowS - skew + 1 }, SECRET))).ok).toBe(true);
  });

  it("refuses exp more than 24 h ahead, or 24 h after its own iat", async () => {
    const tooLong = { ok: false, error: V.tokenTooLong(visitorIdentity.maxLifetimeSeconds / 3600) };
    const max = visitorIdentity.maxLifetimeSeconds;
    expect(await verify(await signVisitorToken({ sub: "u", exp: nowS + max + 3600 }, SECRET))).toEqual(tooLong);
    expect(await verify(await signVisitorToken({ sub: "u", exp: nowS + 3600, iat: nowS + 3600 - max - 1 }, SECRET))).toEqual(tooLong);
    expect((await verify(await signVisitorToken({ sub: "u", exp: nowS + max }, SECRET))).ok).toBe(true);
  });

  it("refuses iat or nbf in the future beyond the skew", async () => {
    const later = nowS + visitorIdentity.clockSkewSeconds + 5;
    expect(await verify(await signVisitorToken({ sub: "u", exp: nowS + 3600, nbf: later }, SECRET))).toEqual({ ok: false, error: V.tokenInvalid });
    expect(await verify(await signVisitorToken({ sub: "u", exp: later + 60, iat: later }, SECRET))).toEqual({ ok: false, error: V.tokenInvalid });
  });

  it("refuses a token signed with another secret, and tries each secret given (rotation)", async () => {
    const token = await signVisitorToken({ sub: "u", exp: nowS + 60 }, OTHER);
    expect(await verify(token)).toEqual({ ok: false, error: V.tokenInvalid });
    expect((await verify(token, [SECRET, OTHER])).ok).toBe(true);
    expect(await verify(token, [])).toEqual({ ok: false, error: V.noSecret });
  });

  it("refuses alg none, HS512 and anything but HS256, whatever the signature", async () => {
    const payload = b64({ sub: "u", exp: nowS + 60 });
    expect(await verify(`${b64({ alg: "none" })}.${payload}.`)).toEqual({ ok: false, error: V.tokenInvalid });
    const none = `${b64({ alg: "none" })}.${payload}`;
    expect(await verify(`${none}.${createHmac("sha256", SECRET).update(none).digest("base64url")}`)).toEqual({ ok: false, error: V.tokenInvalid });
    for (const alg of ["HS512", "RS256", "hs256", "HS384"]) {
      const data = `${b64({ alg, typ: "JWT" })}.${payload}`;
      // Signed with the right secret (SHA-256 tag), only the header's alg differs.
      expect(await verify(`${data}.${createHmac("sha256", SECRET).update(data).digest("base64url")}`)).toEqual({ ok: false, error: V.tokenInvalid });
    }
    const hs512 = `${b64({ alg: "HS512" })}.${payload}`;
    expect(await verify(`${hs512}.${createHmac("sha512", SECRET).update(hs512).digest("base64url")}`)).toEqual({ ok: false, error: V.tokenInvalid });
  });

  it("refuses a tampered payload or signature", async () => {
    const token = await signVisitorToken({ sub: "user-1", exp: nowS + 60 }, SECRET);
    const [h, , s] = token.split(".");
    expect(await verify(`${h}.${b64({ sub: "admin", exp: nowS + 60 })}.${s}`)).toEqual({ ok: false, error: V.tokenInvalid });
    const flipped = `${s!.slice(0, 10)}${s![10] === "A" ? "B" : "A"}${s!.slice(11)}`;
    expect(await verify(`${h}.${token.split(".")[1]}.${flipped}`)).toEqual({ ok: false, error: V.tokenInvalid });
  });

  it("refuses malformed tokens without throwing", async () => {
    const good = await signVisitorToken({ sub: "u", exp: nowS + 60 }, SECRET);
    const [h, p, s] = good.split(".") as [string, string, string];
    const malformed = [
      "",
      "abc",
      "a.b",
      `${good}.extra`,
      `${h}.${p}.${s}=`,
      `${h}.${p}.${s.slice(1)}`,
      `${h}!.${p}.${s}`,
      `${b64("not json")}.${p}.${s}`,
      `${b64([1, 2])}.${p}.${s}`,
      `${h}.${p}.${"A".repeat(43)}`,
      "x".repeat(visitorIdentity.maxTokenChars + 1),
    ];
    for (const token of malformed) expect(await verify(token), token.slice(0, 40)).toEqual({ ok: false, error: V.tokenInvalid });
  });

  it("asks for sub and exp when the claims are missing or of the wrong type", async () => {
    for (const claims of [{ exp: nowS + 60 }, { sub: "", exp: nowS + 60 }, { sub: 42, exp: nowS + 60 }, { sub: "u" }, { sub: "u", exp: "tomorrow" }, { sub: "u", exp: nowS + 0.5 }]) {
      expect(await verify(await signVisitorToken(claims, SECRET)), JSON.stringify(claims)).toEqual({ ok: false, error: V.tokenClaims });
    }
    const payloadNotObject = `${b64({ alg: "HS256" })}.${b64("[1]")}`;
    expect(await verify(`${payloadNotObject}.${createHmac("sha256", SECRET).update(payloadNotObject).digest("base64url")}`)).toEqual({ ok: false, error: V.tokenInvalid });
  });

  it("drops name and e-mail of the wrong type or too long, keeping the visitor", async () => {
    const token = await signVisitorToken({ sub: "u", exp: nowS + 60, name: 7, email: "x".repeat(visitorIdentity.maxEmailChars + 1) }, SECRET);
    expect(await verify(token)).toEqual({ ok: true, visitor: { id: "u" } });
  });

  it("cleans the claims of control and bidirectional characters before anything keeps them", async () => {
    const token = await signVisitorToken(
      { sub: "user\u0000-7\u202e", name: "\u202eAmina\r\nAdmin\u2066\u0007", email: "amina@example.com\r\nBcc: all@example.com\u200f", exp: nowS + 60 },
      SECRET,
    );
    expect(await verify(token)).toEqual({ ok: true, visitor: { id: "user-7", name: "Amina Admin", email: "amina@example.com Bcc: all@example.com" } });
    // A sub of nothing but such characters is no sub; a name of nothing but them is dropped.
    expect(await verify(await signVisitorToken({ sub: "\u202e\u0000", exp: nowS + 60 }, SECRET))).toEqual({ ok: false, error: V.tokenClaims });
    expect(await verify(await signVisitorToken({ sub: "u", name: "\r\n\u202e", exp: nowS + 60 }, SECRET))).toEqual({ ok: true, visitor: { id: "u" } });
  });

  it("makes secrets of the contract's shape and masks them", () => {
    const secret = generateIdentitySecret();
    expect(secret).toMatch(/^tala_vs_[\w-]{43}$/);
    expect(maskIdentitySecret(secret)).toBe(`tala_vs_${secret.slice(8, 12)}…${secret.slice(-4)}`);
  });
});
