/**
 * What verifying a signed visitor's token adds to a session start. The verifier
 * (worker/crypto/visitor-token.ts, bundled with esbuild) runs in Node on WebCrypto, as it does in
 * the assistant's object: one HMAC-SHA256 with the current secret (and, during a rotation's grace,
 * a second one with the previous secret when the first does not match), the header and claims
 * parsed. The HMAC keys are imported once and cached by the hub, so that cost is measured apart.
 * Writes bench/results/visitor-token.json.
 */
import { build } from "esbuild";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(tmpdir(), `tala-visitor-token-${process.pid}.mjs`);
await build({ entryPoints: [join(root, "worker/crypto/visitor-token.ts")], bundle: true, format: "esm", platform: "neutral", outfile: out, logLevel: "silent" });
const { generateIdentitySecret, importIdentitySecret, signVisitorToken, verifyVisitorToken } = await import(pathToFileURL(out).href);
rmSync(out);

const N = 20_000;
const current = generateIdentitySecret();
const previous = generateIdentitySecret();
const exp = Math.floor(Date.now() / 1000) + 3600;
const token = await signVisitorToken({ sub: "user-42", name: "Amina", email: "amina@example.com", exp }, current);
const oldToken = await signVisitorToken({ sub: "user-42", exp }, previous);
const keys = [await importIdentitySecret(current), await importIdentitySecret(previous)];

async function time(label, fn) {
  for (let i = 0; i < 500; i++) await fn();
  const start = performance.now();
  for (let i = 0; i < N; i++) await fn();
  const us = ((performance.now() - start) / N) * 1000;
  console.log(`${label.padEnd(48)} ${us.toFixed(1)} µs`);
  return Number(us.toFixed(1));
}

const results = {
  measuredAt: new Date().toISOString(),
  node: process.version,
  iterations: N,
  microseconds: {
    verifyCurrentSecret: await time("verify (current secret matches)", () => verifyVisitorToken(token, keys)),
    verifyPreviousSecretInGrace: await time("verify (previous secret, in grace: two HMACs)", () => verifyVisitorToken(oldToken, keys)),
    refuseForeignToken: await time("refuse (signed with neither)", () => verifyVisitorToken(token.slice(0, -2) + "AA", keys)),
    importKeyOnce: await time("import an HMAC key (once per secret, cached)", () => importIdentitySecret(current)),
  },
};
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/visitor-token.json"), `${JSON.stringify(results, null, 2)}\n`);
