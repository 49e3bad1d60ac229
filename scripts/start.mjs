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
const devArgs = [...nodeInspector, wrangler, "dev", "--port", port, "--ip", host, "--persist-to", persistTo, "--env-file", envFile, "--show-interactive-dev-session=false", "--live-reload=false", ...inspector];

// wrangler dev exits on one request's failure inside its proxy (a client that hangs up while its
// body is still being sent, or while a request waits out a reload: a known wrangler issue), which
// would take the whole local server down. It is started again on the same port and data, at most
// RESTARTS_PER_MINUTE times a minute; a stop asked for (Ctrl-C, SIGTERM) or a clean exit ends here.
const RESTARTS_PER_MINUTE = 5;
let stopping = false;
const restarts = [];
let dev = serve();
console.log(`\nTala is starting on http://${host}:${port}\n`);
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    stopping = true;
    dev.kill(sig);
  });
}

function serve() {
  const child = spawn(process.execPath, devArgs, { cwd: root, stdio: "inherit", env });
  child.on("exit", (code, signal) => {
    if (stopping || signal || code === 0) process.exit(code ?? 0);
    const now = Date.now();
    while (restarts.length > 0 && restarts[0] < now - 60_000) restarts.shift();
    if (restarts.length >= RESTARTS_PER_MINUTE) {
      console.error(`\n[tala] wrangler dev stopped ${RESTARTS_PER_MINUTE + 1} times within a minute (last exit code ${code}); not starting it again.\n`);
      process.exit(code ?? 1);
    }
    restarts.push(now);
    console.error(`\n[tala] wrangler dev stopped (exit code ${code}); starting it again on http://${host}:${port} with the same data.\n`);
    dev = serve();
  });
  return child;
}
