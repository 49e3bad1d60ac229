import { defineConfig } from "vitest/config";

// Unit tests live beside the pure modules they test (contract/, worker/, dashboard/, widget-sdk/).
export default defineConfig({
  test: {
    include: ["{contract,worker,dashboard,widget-sdk,marketing,scripts,bench}/**/*.test.{ts,tsx}", "tests/mock-model/**/*.test.ts"],
    environment: "node",
  },
});
