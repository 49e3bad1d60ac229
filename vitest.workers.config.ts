import { defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { fileURLToPath } from "node:url";

// Integration tests run inside workerd with the real bindings of wrangler.toml (miniflare's D1,
// R2, Durable Objects), the worker as `main`, and the D1 migrations applied by tests/integration/setup.ts.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));
  return {
    plugins: [
      cloudflareTest({
        main: "./worker/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { ENVIRONMENT: "local", TEST_MIGRATIONS: migrations },
        },
      }),
    ],
    test: {
      include: ["tests/integration/**/*.test.ts"],
      setupFiles: ["./tests/integration/setup.ts"],
    },
  };
});
