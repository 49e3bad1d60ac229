#!/usr/bin/env node
// `npm run bench`: runs every bench/*.mjs (except this file) in turn, each in its own Node process,
// and exits non-zero if any failed. Each script prints its table and writes bench/results/<name>.json.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const scripts = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs")
  .sort();
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
const failed = [];
for (const script of scripts) {
  console.log(`\n=== bench/${script} ===`);
  const result = spawnSync(process.execPath, [join(here, script)], { stdio: "inherit", env });
  if (result.status !== 0) failed.push(script);
}
if (failed.length) {
  console.error(`\nfailed: ${failed.join(", ")}`);
  process.exit(1);
}
