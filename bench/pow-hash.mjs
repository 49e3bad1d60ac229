#!/usr/bin/env node
// The widget's proof-of-work: how long finding a nonce takes at the contract's
// difficulties (16 bits normally, 18 under a spike), with the pure-JavaScript SHA-256 of
// widget-sdk/src/chunks/pow-solver.ts against WebCrypto's `crypto.subtle.digest` (awaited one
// hash at a time, and 256 at once with Promise.all). Node's V8 and WebCrypto stand in for a
// browser's here: the ratio, not the absolute figure, decides. Same challenges, same nonces
// (base36 counter) for every method, so each does the same number of hashes.
// Writes bench/results/pow-hash.json.
import { build } from "esbuild";
import { webcrypto as crypto } from "node:crypto";
import { performance } from "node:perf_hooks";
import { TextEncoder } from "node:util";
import { Buffer } from "node:buffer";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bundled = await build({ entryPoints: [join(root, "widget-sdk/src/chunks/pow-solver.ts")], bundle: true, format: "esm", platform: "neutral", write: false, logLevel: "silent" });
const { solve } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`);

const enc = new TextEncoder();
const zeros = (bytes, bits) => {
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const b = bytes[i];
    if (bits >= 8 ? b !== 0 : b >> (8 - bits) !== 0) return false;
  }
  return true;
};
async function subtleOne(challenge, difficulty) {
  for (let n = 0; ; n++) {
    const nonce = n.toString(36);
    if (zeros(new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(`${challenge}:${nonce}`))), difficulty)) return nonce;
  }
}
async function subtleBatch(challenge, difficulty) {
  for (let n = 0; ; n += 256) {
    const nonces = Array.from({ length: 256 }, (_, i) => (n + i).toString(36));
    const digests = await Promise.all(nonces.map((nonce) => crypto.subtle.digest("SHA-256", enc.encode(`${challenge}:${nonce}`))));
    const i = digests.findIndex((d) => zeros(new Uint8Array(d), difficulty));
    if (i >= 0) return nonces[i];
  }
}
const methods = {
  "pure JS (the widget's, sliced 10 ms)": (c, d) => solve(c, d),
  "crypto.subtle, one at a time": subtleOne,
  "crypto.subtle, 256 at a time": subtleBatch,
};

// A challenge shaped like the server's (an HMAC-signed payload: ~100 characters).
const challenges = Array.from({ length: 8 }, (_, i) => `v1.${Date.now().toString(36)}.${i}.${"a1b2c3d4".repeat(8)}.sig${i}`);
const results = [];
for (const difficulty of [16, 18]) {
  for (const [name, fn] of Object.entries(methods)) {
    const times = [];
    let hashes = 0;
    for (const challenge of challenges) {
      const t0 = performance.now();
      const nonce = await fn(challenge, difficulty);
      times.push(performance.now() - t0);
      hashes += parseInt(nonce, 36) + 1;
    }
    const total = times.reduce((a, b) => a + b, 0);
    times.sort((a, b) => a - b);
    results.push({ difficulty, method: name, challenges: challenges.length, meanMs: +(total / times.length).toFixed(1), medianMs: +times[times.length >> 1].toFixed(1), maxMs: +times.at(-1).toFixed(1), hashesPerSecond: Math.round(hashes / (total / 1000)) });
  }
}
console.log("difficulty  method                                  mean ms  median ms  max ms  hashes/s");
for (const r of results) console.log(`${String(r.difficulty).padEnd(10)}  ${r.method.padEnd(38)}  ${String(r.meanMs).padStart(7)}  ${String(r.medianMs).padStart(9)}  ${String(r.maxMs).padStart(6)}  ${String(r.hashesPerSecond).padStart(8)}`);
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/pow-hash.json"), `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, results }, null, 2)}\n`);
