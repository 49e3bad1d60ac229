// The benches' shared harness: a snapshot of the sources to run Tala from (so a file saved during a
// run cannot make wrangler dev reload), the mock model in its own process, users seeded straight
// into a fresh local D1, `npm start` on a free port, and percentile statistics.
/* global AbortSignal -- Node 20 global */
import { spawn, execFileSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { appendFileSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

/**
 * What Tala needs to run, copied into `to` (sources and built assets: wrangler dev reloads when
 * either changes, e.g. another build writing dist/) with the dependencies linked.
 */
export function snapshot(root, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of ["worker", "contract", "migrations", "scripts", "dist", "wrangler.toml", "package.json", "tsconfig.json"]) {
    cpSync(join(root, entry), join(to, entry), { recursive: true });
  }
  symlinkSync(join(root, "node_modules"), join(to, "node_modules"), "dir");
  return to;
}

/** The mock model in its own Node process, so the benchmark's client never slows it down. */
export async function startMock(root) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, "tests/mock-model/server.mjs"), String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  const url = `http://127.0.0.1:${port}/v1`;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/models`)).ok) return { url, pid: child.pid, stop: () => child.kill("SIGTERM") };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGTERM");
  throw new Error("the mock model did not start");
}

/** Percentiles (nearest rank), mean and max, rounded to 0.1 ms. */
export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
  const round1 = (x) => Math.round(x * 10) / 10;
  const mean = sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1);
  return { p50: round1(at(50)), p95: round1(at(95)), p99: round1(at(99)), mean: round1(mean), max: round1(sorted.at(-1) ?? NaN) };
}

/**
 * Applies the migrations to a fresh local D1 and inserts `n` users with one Tala token each
 * (stored as the worker stores them: SHA-256 hex of the token).
 */
export function seedUsers(root, stateDir, n, env) {
  const wrangler = join(root, "node_modules/wrangler/bin/wrangler.js");
  const run = (args) => execFileSync(process.execPath, [wrangler, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  run(["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir]);
  const now = Date.now();
  const users = Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    email: `bench-${i}-${randomUUID().slice(0, 8)}@example.com`,
    token: `tala_${randomBytes(32).toString("base64url")}`,
  }));
  const q = (s) => `'${s.replace(/'/g, "''")}'`;
  const sql = [
    `INSERT INTO users (id, email, first_name, created_at, updated_at) VALUES ${users.map((u) => `(${q(u.id)}, ${q(u.email)}, 'Bench', ${now}, ${now})`).join(", ")};`,
    `INSERT INTO auth_tokens (id, user_id, token_hash, created_at, expires_at, last_used_at) VALUES ${users
      .map((u) => `(${q(randomUUID())}, ${q(u.id)}, ${q(createHash("sha256").update(u.token).digest("hex"))}, ${now}, ${now + 86_400_000}, ${now})`)
      .join(", ")};`,
  ].join("\n");
  const file = join(dirname(stateDir), "seed.sql");
  writeFileSync(file, sql);
  run(["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--file", file]);
  return users;
}

/**
 * The worker's own address inside wrangler dev, behind wrangler's proxy (its ProxyWorker, in another
 * workerd): the listening ports of the workerd that runs the worker (the one started with an
 * inspector), the one that answers /api/health. Null when none does. For measuring the proxy's cost.
 */
export async function userWorkerURL(tala) {
  const out = execFileSync("ss", ["-ltnpH"], { encoding: "utf8" });
  // Only this Tala's: the descendants of its `npm start`.
  const children = (pid) => execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).split("\n").map((x) => x.trim()).filter(Boolean);
  const mine = [];
  for (let queue = [String(tala.pid)]; queue.length; ) {
    const pid = queue.shift();
    mine.push(pid);
    try {
      queue.push(...children(pid));
    } catch {
      // no children
    }
  }
  const pids = mine.filter((pid) => {
    try {
      return /workerd serve.*--inspector-addr/.test(execFileSync("ps", ["-o", "args=", "-p", pid], { encoding: "utf8" }));
    } catch {
      return false;
    }
  });
  const ports = [];
  for (const line of out.split("\n")) {
    const m = /127\.0\.0\.1:(\d+)\s.*pid=(\d+)/.exec(line);
    if (m && pids.includes(m[2])) ports.push(m[1]);
  }
  for (const port of ports) {
    const url = `http://127.0.0.1:${port}`;
    if (url === tala.baseURL) continue;
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok && (res.headers.get("content-type") ?? "").includes("json")) return url;
    } catch {
      // not HTTP
    }
  }
  return null;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `npm start` without the build, as tests/e2e/server.ts does it; resolves once /api/health answers.
 * `inspectorPort`: wrangler dev's DevTools inspector on that port (the worker's isolate), and
 * `wranglerInspectPort`: wrangler's own Node process's inspector (bench/lib/profile.mjs).
 */
export async function startTala(root, stateDir, vars, env, { inspectorPort, wranglerInspectPort } = {}) {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      TALA_STATE_DIR: stateDir,
      TALA_EXTRA_VARS: JSON.stringify(vars),
      ...(inspectorPort ? { TALA_INSPECTOR_PORT: String(inspectorPort) } : {}),
      ...(wranglerInspectPort ? { TALA_WRANGLER_INSPECT_PORT: String(wranglerInspectPort) } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  // What wrangler dev said that a bench reports: runtime warnings counted over the whole run.
  const said = { connectionLost: 0, hung: 0, errors: 0 };
  let partial = "";
  // TALA_BENCH_WRANGLER_LOG=<file>: everything wrangler dev said, for a run that needs reading afterwards.
  const logFile = process.env.TALA_BENCH_WRANGLER_LOG;
  const hear = (d) => {
    output = (output + d).slice(-20_000);
    if (logFile) appendFileSync(logFile, d);
    const lines = (partial + d).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.includes("Network connection lost")) said.connectionLost++;
      if (line.includes("code had hung")) said.hung++;
      if (/✘ \[ERROR\]|"error"/.test(line)) said.errors++;
    }
  };
  child.stdout.on("data", hear);
  child.stderr.on("data", hear);
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || !child.pid) return;
    const exited = new Promise((r) => child.once("exit", r));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return;
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Tala exited before it was ready:\n${output}`);
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) return { baseURL, stop, pid: child.pid, output: () => output, said };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`Tala did not become ready on ${baseURL}:\n${output}`);
}
