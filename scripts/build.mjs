#!/usr/bin/env node
// Builds every static part into dist/public (the Worker's assets): marketing, dashboard, then the
// service worker, which precaches what the other two produced. Environment: PUBLIC_URL (the site's
// address, scripts/public-url.mjs), TALA_BUILD_ID (service worker version). With --deploy, a
// missing, local or plain-http PUBLIC_URL stops the build before anything is written.
import { rmSync, mkdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { deployUrlProblem } from "./public-url.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
if (process.argv.includes("--deploy")) {
  const problem = deployUrlProblem();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
const out = join(root, "dist/public");
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: "inherit", env: process.env });

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
run(process.execPath, ["marketing/build.mjs"]);
run(process.execPath, ["node_modules/vite/bin/vite.js", "build", "--config", "dashboard/vite.config.ts", "--logLevel", "warn"]);
run(process.execPath, ["widget-sdk/build.mjs", "--public"]);
run(process.execPath, ["scripts/build-service-worker.mjs"]);
// Last: it hashes the inline scripts of the HTML the steps above produced.
run(process.execPath, ["scripts/build-headers.mjs"]);
console.log("built dist/public");
