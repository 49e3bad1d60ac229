/// <reference types="@cloudflare/vitest-pool-workers/types" />

// Types for tests running in workerd: `env` from cloudflare:test carries the worker's bindings
// plus the test-only ones vitest.workers.config.ts injects, and `exports.default` is the worker.
declare global {
  namespace Cloudflare {
    interface GlobalProps {
      mainModule: typeof import("../../worker/index");
      durableNamespaces: "RateLimiter";
    }
    interface Env extends Omit<import("../../worker/env").Env, "ENVIRONMENT"> {
      ENVIRONMENT: string;
      /** A private JWK (JSON) whose public half is in FIREBASE_JWKS: tests sign Firebase ID tokens with it. */
      TEST_FIREBASE_PRIVATE_JWK: string;
      /** Origin of tests/test-site (started by global-setup.ts), the website the crawler's tests read. */
      TEST_SITE_URL: string;
      /** Origin of tests/webhook-receiver (started by global-setup.ts): records webhook deliveries. */
      WEBHOOK_RECEIVER_URL: string;
    }
  }
}

export {};
