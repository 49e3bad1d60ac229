import { defineConfig } from "@playwright/test";

/** Debian's Chromium (never a downloaded browser); CHROME_PATH for other machines. */
const executablePath = process.env.CHROME_PATH || "/usr/bin/chromium";

// End-to-end tests drive real Chromium against `wrangler dev` started by tests/e2e/global-setup.ts
// on a free port with a fresh state folder; it exports E2E_BASE_URL before the workers start.
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
