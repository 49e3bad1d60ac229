import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { botDefence } from "../../../contract/constants";
import { digestWith, leadingZeros, midstate, solve } from "./pow-solver";

const hex = (words: Int32Array) => [...words].map((w) => (w >>> 0).toString(16).padStart(8, "0")).join("");
const reference = (text: string) => createHash("sha256").update(text, "utf8").digest();
const zeroBits = (digest: Buffer) => {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) bits += 8;
    else return bits + Math.clz32(byte) - 24;
  }
  return bits;
};

describe("the proof-of-work solver's SHA-256", () => {
  it("equals node:crypto's for every prefix length around the block boundaries, UTF-8 included", () => {
    for (let len = 0; len < 200; len++) {
      const prefix = `${"é".repeat(len % 3)}${"x".repeat(len)}:`;
      const m = midstate(new TextEncoder().encode(prefix));
      for (const suffix of ["", "0", "zz", "abcdefghijk", "9".repeat(32)]) {
        expect(hex(digestWith(m, suffix))).toBe(reference(prefix + suffix).toString("hex"));
      }
    }
  });

  it("counts leading zero bits as the server does (up to 32)", () => {
    const word = (w: number) => Int32Array.from([w, 0, 0, 0, 0, 0, 0, 0]);
    expect(leadingZeros(word(0), 32)).toBe(true);
    expect(leadingZeros(word(1), 32)).toBe(false);
    expect(leadingZeros(word(1), 31)).toBe(true);
    expect(leadingZeros(word(0x00008000), 16)).toBe(true);
    expect(leadingZeros(word(0x00008000), 17)).toBe(false);
    expect(leadingZeros(word(-1), 1)).toBe(false);
    expect(leadingZeros(word(-1), 0)).toBe(true);
  });
});

describe("solve", () => {
  it("finds a nonce whose hash node:crypto confirms, within the contract's nonce length", async () => {
    for (const challenge of ["c1.signed", "x".repeat(300), "défi"]) {
      const nonce = await solve(challenge, 12);
      expect(nonce.length).toBeLessThanOrEqual(botDefence.maxNonceChars);
      expect(nonce).toMatch(/^[0-9a-z]+$/);
      expect(zeroBits(reference(`${challenge}:${nonce}`))).toBeGreaterThanOrEqual(12);
    }
  });

  it("solves the contract's normal difficulty", async () => {
    const nonce = await solve("normal-challenge", botDefence.difficultyBits.normal);
    expect(zeroBits(reference(`normal-challenge:${nonce}`))).toBeGreaterThanOrEqual(botDefence.difficultyBits.normal);
  });

  it("yields to the event loop between slices and stops when aborted", async () => {
    const abort = new AbortController();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const search = solve("never", 32, abort.signal, 1);
    await new Promise((r) => setTimeout(r, 30));
    abort.abort();
    await expect(search).rejects.toThrow();
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });
});
