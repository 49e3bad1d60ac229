#!/usr/bin/env node
// `npm start`: build, apply D1 migrations to the local database, serve everything with wrangler dev.
// Configuration: .dev.vars, overridden by the same names in the process environment; PORT (8787).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawn, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { CONFIG_NAMES, OFFLINE_ENV, parseDotenv, toDotenv } from "./config.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const port = process.env.PORT || "8787";
const host = process.env.HOST || "127.0.0.1";
const persistTo = process.env.TALA_STATE_DIR || join(root, ".wrangler/state");
const env = { ...process.env, ...OFFLINE_ENV };
const wrangler = join(root, "node_modules/wrangler/bin/wrangler.js");

if (!process.argv.includes("--no-build")) {
  execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: "inherit", env });
}

// The Worker's variables: .dev.vars, then the process environment, then local mode.
const fromFile = existsSync(join(root, ".dev.vars")) ? parseDotenv(readFileSync(join(root, ".dev.vars"), "utf8")) : {};
const fromProcess = Object.fromEntries(CONFIG_NAMES.filter((n) => process.env[n] !== undefined).map((n) => [n, process.env[n]]));
const extra = process.env.TALA_EXTRA_VARS ? JSON.parse(process.env.TALA_EXTRA_VARS) : {};
mkdirSync(join(root, ".wrangler"), { recursive: true });
const envFile = join(persistTo, "..", `tala-${port}.env`);
mkdirSync(dirname(envFile), { recursive: true });
writeFileSync(envFile, toDotenv({ ...fromFile, ...fromProcess, ...extra, ENVIRONMENT: "local" }), { mode: 0o600 });

execFileSync(process.execPath, [wrangler, "d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], {
  cwd: root,
  stdio: ["ignore", "inherit", "inherit"],
  env: { ...env, CI: "true" },
});

// The benches' CPU profiles: TALA_INSPECTOR_PORT opens the worker's DevTools inspector on that port,
// TALA_WRANGLER_INSPECT_PORT the inspector of wrangler's own Node process.
const inspector = process.env.TALA_INSPECTOR_PORT ? ["--inspector-port", process.env.TALA_INSPECTOR_PORT] : [];
const nodeInspector = process.env.TALA_WRANGLER_INSPECT_PORT ? [`--inspect=127.0.0.1:${process.env.TALA_WRANGLER_INSPECT_PORT}`] : [];
const dev = spawn(
  process.execPath,
  [...nodeInspector, wrangler, "dev", "--port", port, "--ip", host, "--persist-to", persistTo, "--env-file", envFile, "--show-interactive-dev-session=false", "--live-reload=false", ...inspector],
  { cwd: root, stdio: "inherit", env },
);
console.log(`\nTala is starting on http://${host}:${port}\n`);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => dev.kill(sig));
dev.on("exit", (code) => process.exit(code ?? 0));
