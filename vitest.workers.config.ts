import { defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { exportJWK, generateKeyPair } from "jose";

// Integration tests run inside workerd with the real bindings of wrangler.toml (miniflare's D1,
// R2, Durable Objects), the worker as `main`, and the D1 migrations applied by tests/integration/setup.ts.
export default defineConfig(async () => {
  // wrangler.toml's assets folder must exist for the pool to start; on a clean checkout nothing has
  // been built yet, and these tests do not need the built files (static routing falls through).
  mkdirSync(fileURLToPath(new URL("./dist/public", import.meta.url)), { recursive: true });
  const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));
  // A throwaway RSA key pair stands in for Google's Firebase signing keys: the worker verifies
  // against FIREBASE_JWKS (public half) and tests sign with TEST_FIREBASE_PRIVATE_JWK.
  const firebaseKeys = await generateKeyPair("RS256", { extractable: true });
  const kid = "tala-test-key";
  const publicJwk = { ...(await exportJWK(firebaseKeys.publicKey)), kid, alg: "RS256", use: "sig" };
  const privateJwk = { ...(await exportJWK(firebaseKeys.privateKey)), kid, alg: "RS256" };
  return {
    plugins: [
      // A function, so the mock model's URL (started by tests/integration/global-setup.ts) can be injected.
      cloudflareTest(({ inject }) => ({
        main: "./worker/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            ENVIRONMENT: "local",
            TEST_MIGRATIONS: migrations,
            FIREBASE_PROJECT_ID: "tala-test",
            FIREBASE_JWKS: JSON.stringify({ keys: [publicJwk] }),
            TEST_FIREBASE_PRIVATE_JWK: JSON.stringify(privateJwk),
            // The scripted mock model (tests/mock-model), running in Node for the whole run.
            LLM_BASE_URL: inject("mockModelUrl"),
            LLM_MODEL: "mock-small",
            // The crawler's tests read tests/test-site; requests to it are spaced 20 ms instead of a second.
            TEST_SITE_URL: inject("testSiteUrl"),
            CRAWL_SPACING_MS: "20",
            // The webhook tests' receiver (tests/webhook-receiver), reached over loopback as local mode allows.
            WEBHOOK_RECEIVER_URL: inject("webhookReceiverUrl"),
          },
        },
      })),
    ],
    test: {
      include: ["tests/integration/**/*.test.ts"],
      // Each file starts its own workerd and spends most of its time starting it and waiting on
      // sockets, alarms and the mock model, not on the CPU: four at once take about half the time
      // of two on a 2-core machine (bench/README.md, "Test suite").
      maxWorkers: 4,
      setupFiles: ["./tests/integration/setup.ts"],
      globalSetup: ["./tests/integration/global-setup.ts"],
    },
  };
});
