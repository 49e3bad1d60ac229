import { describe, expect, it } from "vitest";
import { teamLimits } from "../../contract";
import { TOKEN_PREFIX, generateAlphabetCode, generateNumericCode, generateToken } from "./random";
import { sha256Hex } from "./hash";
import { timingSafeEqual, timingSafeEqualText, toBase64Url } from "./encoding";

describe("tokens", () => {
  it("are tala_ + 32 random bytes in base64url", () => {
    const token = generateToken();
    expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
    const body = token.slice(TOKEN_PREFIX.length);
    expect(body).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(body, "base64url")).toHaveLength(32);
    expect(generateToken()).not.toBe(token);
  });
});

describe("numeric codes", () => {
  it("have exactly the requested digits, leading zeros kept", () => {
    for (let i = 0; i < 2000; i++) expect(generateNumericCode(6)).toMatch(/^\d{6}$/);
  });

  it("are spread over every digit position (no stuck or biased digit)", () => {
    const counts = Array.from({ length: 6 }, () => new Array<number>(10).fill(0));
    const draws = 20_000;
    for (let i = 0; i < draws; i++) {
      const code = generateNumericCode(6);
      for (let p = 0; p < 6; p++) counts[p]![Number(code[p])]!++;
    }
    // Each digit expects 2000 hits per position; ±20% is many standard deviations wide (σ≈42).
    for (const position of counts) for (const hits of position) expect(Math.abs(hits - draws / 10)).toBeLessThan(draws / 50);
  });

  it("refuses lengths that cannot be drawn without bias from 32 bits", () => {
    expect(() => generateNumericCode(0)).toThrow(RangeError);
    expect(() => generateNumericCode(10)).toThrow(RangeError);
  });
});

describe("generateAlphabetCode", () => {
  it("draws only the alphabet's characters, at the length asked", () => {
    const code = generateAlphabetCode(teamLimits.codeChars, teamLimits.codeAlphabet);
    expect(code).toHaveLength(teamLimits.codeChars);
    for (const ch of code) expect(teamLimits.codeAlphabet).toContain(ch);
  });

  it("draws every character about equally often, with an alphabet that does not divide 256", () => {
    const alphabet = "ABCDEFG"; // 7: 256 % 7 = 4, so a plain modulo would favour A..D
    const counts = new Map<string, number>();
    const draws = 20_000;
    for (let i = 0; i < draws / 100; i++) for (const ch of generateAlphabetCode(100, alphabet)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    for (const ch of alphabet) expect(Math.abs((counts.get(ch) ?? 0) - draws / 7)).toBeLessThan(draws / 7 / 8);
  });

  it("refuses lengths and alphabets it cannot draw from", () => {
    expect(() => generateAlphabetCode(0, "AB")).toThrow(RangeError);
    expect(() => generateAlphabetCode(4, "A")).toThrow(RangeError);
    expect(() => generateAlphabetCode(4, "AA")).toThrow(RangeError);
  });
});

describe("hashing and comparison", () => {
  it("hashes with SHA-256 hex", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("compares in constant time and still gets the answer right", () => {
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
    expect(timingSafeEqualText("abc", "abc")).toBe(true);
    expect(timingSafeEqualText("abc", "abd")).toBe(false);
  });

  it("encodes base64url without padding", () => {
    expect(toBase64Url(new Uint8Array([0xfb, 0xff]))).toBe("-_8");
  });
});
