import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { botDefence } from "../../contract";
import { fromBase64Url, toBase64Url } from "../crypto/encoding";
import { deriveChallengeKey, issueChallenge, leadingZeroBits, proofHash, spikeNetworkOf, verifyProof } from "./proof-of-work";

const secret = "a-test-secret-of-enough-length-0123456789";
const assistantId = "5b7f0a3e-2c1d-4e8f-9a6b-1c2d3e4f5a6b";
const address = "203.0.113.7";
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);

/** Leading zero bits of SHA-256(`${challenge}:${nonce}`), computed apart from the module (node:crypto). */
const bitsOf = (challenge: string, nonce: string) => leadingZeroBits(createHash("sha256").update(`${challenge}:${nonce}`, "utf8").digest());

/** The first nonce (decimal counter) that meets `difficulty`, as the widget's solver does. */
function solve(challenge: string, difficulty: number): string {
  for (let i = 0; ; i++) if (bitsOf(challenge, String(i)) >= difficulty) return String(i);
}

/** A nonce that does NOT meet `difficulty`. */
function miss(challenge: string, difficulty: number): string {
  for (let i = 0; ; i++) if (bitsOf(challenge, String(i)) < difficulty) return String(i);
}

async function issued(difficulty = 8, overrides: Partial<{ assistantId: string; address: string; now: number }> = {}) {
  const key = await deriveChallengeKey(secret);
  const challenge = await issueChallenge(key, { assistantId, address, difficulty, now: NOW, ...overrides });
  return { key, ...challenge };
}

describe("leadingZeroBits", () => {
  it("counts zero bits across bytes", () => {
    expect(leadingZeroBits(new Uint8Array([0xff]))).toBe(0);
    expect(leadingZeroBits(new Uint8Array([0x01, 0xff]))).toBe(7);
    expect(leadingZeroBits(new Uint8Array([0x00, 0x00, 0x20]))).toBe(18);
    expect(leadingZeroBits(new Uint8Array([0, 0]))).toBe(16);
    expect(leadingZeroBits(new Uint8Array([]))).toBe(0);
  });

  it("agrees with node's SHA-256 on the module's hash", async () => {
    const hash = await proofHash("abc", "42");
    expect(Buffer.from(hash).toString("hex")).toBe(createHash("sha256").update("abc:42").digest("hex"));
  });
});

describe("issueChallenge", () => {
  it("is base64url payload + signature, within the contract's size, and unique each time", async () => {
    const a = await issued(botDefence.difficultyBits.spike);
    const b = await issued(botDefence.difficultyBits.spike);
    expect(a.challenge).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(a.challenge.length).toBeLessThanOrEqual(botDefence.maxChallengeChars);
    expect(a.difficulty).toBe(botDefence.difficultyBits.spike);
    expect(a.challenge).not.toBe(b.challenge);
    // The address is not readable from the challenge.
    expect(new TextDecoder().decode(fromBase64Url(a.challenge.split(".")[0]!))).not.toContain(address);
  });
});

describe("verifyProof", () => {
  it("accepts a solved challenge from the same address for the same assistant before it expires", async () => {
    const { key, challenge, difficulty } = await issued(10);
    const nonce = solve(challenge, difficulty);
    const checked = await verifyProof(key, { challenge, nonce }, { assistantId, address, now: NOW + 60_000 });
    expect(checked).toMatchObject({ ok: true, difficulty: 10, expiresAt: Math.floor(NOW / 1000) * 1000 + botDefence.challengeTtlSeconds * 1000 });
    // The id (the replay check's key) is the same for the same challenge, and differs between challenges.
    const again = await verifyProof(key, { challenge, nonce }, { assistantId, address, now: NOW });
    const other = await issued(10);
    const otherChecked = await verifyProof(key, { challenge: other.challenge, nonce: solve(other.challenge, 10) }, { assistantId, address, now: NOW });
    expect(checked.ok && again.ok && otherChecked.ok).toBe(true);
    if (checked.ok && again.ok && otherChecked.ok) {
      expect(again.id).toBe(checked.id);
      expect(otherChecked.id).not.toBe(checked.id);
    }
  });

  it("refuses too few leading zero bits", async () => {
    const { key, challenge } = await issued(12);
    expect(await verifyProof(key, { challenge, nonce: miss(challenge, 12) }, { assistantId, address, now: NOW })).toEqual({ ok: false, reason: "insufficient" });
  });

  it("refuses a forged signature, a changed payload (e.g. fewer bits asked) and another server's key", async () => {
    const { key, challenge } = await issued(12);
    const [payload, signature] = challenge.split(".") as [string, string];
    // One signature character changed.
    const flipped = `${payload}.${signature.slice(0, -2)}${signature.at(-2) === "A" ? "B" : "A"}${signature.at(-1)}`;
    expect(await verifyProof(key, { challenge: flipped, nonce: solve(flipped, 12) }, { assistantId, address, now: NOW })).toEqual({ ok: false, reason: "signature" });
    // The payload rewritten to ask for 1 bit, signature kept.
    const text = new TextDecoder().decode(fromBase64Url(payload)).replace("|12|", "|1|");
    const cheaper = `${toBase64Url(new TextEncoder().encode(text))}.${signature}`;
    expect(await verifyProof(key, { challenge: cheaper, nonce: solve(cheaper, 1) }, { assistantId, address, now: NOW })).toEqual({ ok: false, reason: "signature" });
    // Signed by another server.
    const foreign = await deriveChallengeKey("another-secret-entirely-0123456789");
    expect(await verifyProof(foreign, { challenge, nonce: solve(challenge, 12) }, { assistantId, address, now: NOW })).toEqual({ ok: false, reason: "signature" });
  });

  it("refuses an expired challenge, and one issued in the future", async () => {
    const { key, challenge, difficulty } = await issued(8);
    const nonce = solve(challenge, difficulty);
    const expiry = NOW + botDefence.challengeTtlSeconds * 1000;
    expect((await verifyProof(key, { challenge, nonce }, { assistantId, address, now: expiry - 1000 })).ok).toBe(true);
    expect(await verifyProof(key, { challenge, nonce }, { assistantId, address, now: expiry })).toEqual({ ok: false, reason: "expired" });
    expect(await verifyProof(key, { challenge, nonce }, { assistantId, address, now: NOW - 5 * 60_000 })).toEqual({ ok: false, reason: "expired" });
    // Issued by a machine whose clock is a little ahead: tolerated; far ahead: refused.
    expect((await verifyProof(key, { challenge, nonce }, { assistantId, address, now: NOW - 10_000 })).ok).toBe(true);
    expect(await verifyProof(key, { challenge, nonce }, { assistantId, address, now: NOW - 31_000 })).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a signed challenge whose lifetime is not the one challenges are issued for", async () => {
    const key = await deriveChallengeKey(secret);
    // The address tag as the issuer writes it: the first 16 bytes of HMAC(key, "address|" + address).
    const tag = crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`address|${address}`)).then((mac) => toBase64Url(new Uint8Array(mac).slice(0, 16)));
    const issuedAt = NOW / 1000;
    const ttl = botDefence.challengeTtlSeconds;
    const sign = async (issued: number, expires: number) => {
      const payload = ["v1", assistantId, issued, expires, 1, "c2FsdHNhbHRzYWx0c2FsdA", await tag].join("|");
      const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(payload)));
      const challenge = `${toBase64Url(new TextEncoder().encode(payload))}.${toBase64Url(signature)}`;
      return { challenge, nonce: solve(challenge, 1) };
    };
    const at = { assistantId, address, now: NOW + 1000 };
    // The issuer's own shape passes (the hand-made payload is a faithful one).
    expect((await verifyProof(key, await sign(issuedAt, issuedAt + ttl), at)).ok).toBe(true);
    // Signed, not expired, issued in the past, but living longer (or shorter) than issued for.
    expect(await verifyProof(key, await sign(issuedAt, issuedAt + ttl + 1), at)).toEqual({ ok: false, reason: "lifetime" });
    expect(await verifyProof(key, await sign(issuedAt, issuedAt + 365 * 86_400), at)).toEqual({ ok: false, reason: "lifetime" });
    expect(await verifyProof(key, await sign(issuedAt - 3600, issuedAt + 60), at)).toEqual({ ok: false, reason: "lifetime" });
    expect(await verifyProof(key, await sign(issuedAt, issuedAt + ttl - 1), at)).toEqual({ ok: false, reason: "lifetime" });
    // The right lifetime but issued in the future, past a clock's tolerance (so expiring further than a lifetime ahead).
    expect(await verifyProof(key, await sign(issuedAt + 60, issuedAt + 60 + ttl), at)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses another address and another assistant", async () => {
    const { key, challenge, difficulty } = await issued(8);
    const nonce = solve(challenge, difficulty);
    expect(await verifyProof(key, { challenge, nonce }, { assistantId, address: "203.0.113.8", now: NOW })).toEqual({ ok: false, reason: "address" });
    expect(await verifyProof(key, { challenge, nonce }, { assistantId: "another-assistant", address, now: NOW })).toEqual({ ok: false, reason: "assistant" });
  });

  it("refuses a nonce longer than the contract allows, before hashing", async () => {
    const { key, challenge } = await issued(8);
    const long = "0".repeat(botDefence.maxNonceChars + 1);
    expect(await verifyProof(key, { challenge, nonce: long }, { assistantId, address, now: NOW })).toEqual({ ok: false, reason: "nonce" });
  });

  it("never throws on garbage of any size or shape", async () => {
    const key = await deriveChallengeKey(secret);
    const garbage = [
      "",
      ".",
      "..",
      "a.b.c",
      "not base64!.sig",
      "====.====",
      "\u0000\u0001.\uffff",
      "x".repeat(botDefence.maxChallengeChars + 1),
      "x".repeat(5_000_000),
      `${"A".repeat(600)}.${"B".repeat(43)}`,
      "%%%.%%%",
      "🙂.🙂",
    ];
    for (const challenge of garbage) {
      const checked = await verifyProof(key, { challenge, nonce: "0" }, { assistantId, address, now: NOW });
      expect(checked.ok, challenge.slice(0, 40)).toBe(false);
    }
    // Non-strings (a caller that skipped the schema).
    expect((await verifyProof(key, { challenge: 42 as unknown as string, nonce: "0" }, { assistantId, address })).ok).toBe(false);
    expect((await verifyProof(key, { challenge: "a.b", nonce: null as unknown as string }, { assistantId, address })).ok).toBe(false);
  });

  it("refuses a payload we signed but that is not a challenge (wrong version, fields, numbers, difficulty)", async () => {
    const key = await deriveChallengeKey(secret);
    const sign = async (text: string) => {
      const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
      return `${toBase64Url(new TextEncoder().encode(text))}.${toBase64Url(signature)}`;
    };
    const t = Math.floor(NOW / 1000);
    for (const text of [
      `v0|${assistantId}|${t}|${t + 120}|1|salt|tag`,
      `v1|${assistantId}|${t}|${t + 120}|1|salt`,
      `v1|${assistantId}|soon|${t + 120}|1|salt|tag`,
      `v1|${assistantId}|${t}|${t + 120}|99|salt|tag`,
      `v1|${assistantId}|${t}|${t + 120}|1||tag`,
      "garbage",
    ]) {
      const challenge = await sign(text);
      expect((await verifyProof(key, { challenge, nonce: solve(challenge, 1) }, { assistantId, address, now: NOW })).ok, text).toBe(false);
    }
  });
});

describe("spikeNetworkOf", () => {
  it("groups IPv4 by /24 and IPv6 (clientIp's /64 form) by /48", () => {
    expect(spikeNetworkOf("203.0.113.7")).toBe("203.0.113.0/24");
    expect(spikeNetworkOf("203.0.113.250")).toBe("203.0.113.0/24");
    expect(spikeNetworkOf("2001:db8:0:1::/64")).toBe("2001:db8:0::/48");
    expect(spikeNetworkOf("2001:db8:0:ffff::/64")).toBe("2001:db8:0::/48");
    expect(spikeNetworkOf("weird")).toBe("weird");
  });
});
