#!/usr/bin/env node
// Chat overhead: the time Tala adds before the first streamed token of a reply.
//
// Starts the mock model (tests/mock-model, its own process) and Tala as `npm start` does
// (`scripts/start.mjs --no-build`, a free port, a fresh state folder, the mock as LLM_BASE_URL),
// from a snapshot of the sources in a temporary folder, so a file saved during the run cannot make
// wrangler dev reload (which drops every socket). Every message carries the mock's cues for a fixed
// time to first token. Users and their tokens are written straight into the fresh local D1 before
// Tala starts, so the register/login throttles play no part. Then, for 1, 50 and 200 concurrent chats
// (one signed-in user and socket each: every chat has its own room), every user sends a message
// that opens a new chat at the same moment, and for each we measure
//     overhead = (first message-delta received) − (send-message sent) − (the mock's ttft)
// i.e. authentication is done (sockets are open, every room has served one message), but the
// chat's creation, the user's message and the reply row being saved, the model request and the
// frames are all counted. Locally every room shares one workerd thread (and miniflare's D1), so
// the concurrent levels measure that thread's throughput on this machine, whose load average is
// recorded with the figures. Loopback only, bounded waits.
// Prints a table and writes bench/results/chat-overhead.json. Needs a built dist/ (npm run build).
/* global WebSocket, performance -- Node 20 with --experimental-websocket provides both. */
import { spawn, execFileSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The mock's fixed time to first token, and its cues on every message (short replies). */
const TTFT_MS = 200;
const CUES = `[[ttft:${TTFT_MS}]] [[tokens:8]] [[delay:5]]`;

// Node 20 has WebSocket behind a flag: run again with it.
if (typeof globalThis.WebSocket === "undefined") {
  const child = spawn(process.execPath, ["--experimental-websocket", "--no-warnings", fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  child.on("exit", (code) => process.exit(code ?? 1));
} else {
  await main();
}

async function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const LEVELS = [
    { concurrency: 1, rounds: 30 },
    { concurrency: 50, rounds: 3 },
    { concurrency: 200, rounds: 2 },
  ];
  const USERS = Math.max(...LEVELS.map((l) => l.concurrency));
  const ROUND_TIMEOUT_MS = 60_000;
  const offline = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

  if (!existsSync(join(root, "dist/public/index.html"))) {
    console.error("dist/public is missing: run `npm run build` first");
    process.exit(1);
  }

  const dir = mkdtempSync(join(tmpdir(), "tala-chat-bench-"));
  const stateDir = join(dir, "state");
  const app = snapshot(root, join(dir, "app"));
  let tala;
  let mock;
  try {
    mock = await startMock(root);
    const users = seedUsers(app, stateDir, USERS, offline);
    tala = await startTala(app, stateDir, { LLM_BASE_URL: mock.url, LLM_MODEL: "mock-small" }, offline);
    console.log(`Tala on ${tala.baseURL}, mock model ttft ${TTFT_MS} ms, ${USERS} users`);
    const sockets = await openSockets(tala.baseURL, users);

    // Warm up (not recorded): every room's first message pays for module loading, reading the
    // user's settings and D1's first queries; measure the steady state, 50 rooms at a time.
    for (let i = 0; i < sockets.length; i += 50) await round(sockets.slice(i, i + 50), ROUND_TIMEOUT_MS);
    await new Promise((r) => setTimeout(r, TTFT_MS + 300));

    const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
    const results = [];
    for (const level of LEVELS) {
      const samples = [];
      let errors = 0;
      for (let r = 0; r < level.rounds; r++) {
        await reopenClosed(tala.baseURL, sockets);
        const out = await round(sockets.slice(0, level.concurrency), ROUND_TIMEOUT_MS);
        samples.push(...out.firstDeltaMs.map((ms) => ms - TTFT_MS));
        errors += out.errors;
        // Let the rooms finish naming the round's chats (one more model call each) before the next.
        await new Promise((r) => setTimeout(r, TTFT_MS + 300));
      }
      results.push({ concurrency: level.concurrency, samples: samples.length, errors, ...stats(samples) });
    }
    const loadAfter = loadavg().map((x) => Math.round(x * 100) / 100);
    for (const s of sockets) s.ws.close();

    console.log(`\nExtra time before the first message-delta (ms) = time to first delta − mock ttft (load average ${loadBefore.join(" ")} → ${loadAfter.join(" ")})`);
    console.log(["concurrent chats", "samples", "errors", "p50", "p95", "p99", "mean", "max"].join("\t"));
    for (const r of results) console.log([r.concurrency, r.samples, r.errors, r.p50, r.p95, r.p99, r.mean, r.max].join("\t"));
    mkdirSync(join(root, "bench/results"), { recursive: true });
    writeFileSync(
      join(root, "bench/results/chat-overhead.json"),
      `${JSON.stringify({ bench: "chat-overhead", date: new Date().toISOString(), node: process.version, mockTtftMs: TTFT_MS, loadAverage: { before: loadBefore, after: loadAfter }, results }, null, 2)}\n`,
    );
    console.log("\nwrote bench/results/chat-overhead.json");
  } finally {
    await tala?.stop();
    mock?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What Tala needs to run, copied into `to` (sources and built assets: wrangler dev reloads when
 * either changes, e.g. another build writing dist/) with the dependencies linked.
 */
function snapshot(root, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of ["worker", "contract", "migrations", "scripts", "dist", "wrangler.toml", "package.json", "tsconfig.json"]) {
    cpSync(join(root, entry), join(to, entry), { recursive: true });
  }
  symlinkSync(join(root, "node_modules"), join(to, "node_modules"), "dir");
  return to;
}

/** The mock model in its own Node process, so the benchmark's client never slows it down. */
async function startMock(root) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, "tests/mock-model/server.mjs"), String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  const url = `http://127.0.0.1:${port}/v1`;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/models`)).ok) return { url, stop: () => child.kill("SIGTERM") };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGTERM");
  throw new Error("the mock model did not start");
}

/** Percentiles (nearest rank), mean and max, rounded to 0.1 ms. */
function stats(values) {
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
function seedUsers(root, stateDir, n, env) {
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

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** `npm start` without the build, as tests/e2e/server.ts does it; resolves once /api/health answers. */
async function startTala(root, stateDir, vars, env) {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), TALA_STATE_DIR: stateDir, TALA_EXTRA_VARS: JSON.stringify(vars) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout.on("data", (d) => (output = (output + d).slice(-20_000)));
  child.stderr.on("data", (d) => (output = (output + d).slice(-20_000)));
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
      if ((await fetch(`${baseURL}/api/health`)).ok) return { baseURL, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`Tala did not become ready on ${baseURL}:\n${output}`);
}

/** One socket per user, each to the user's own room; frames are dispatched to per-message waiters. */
async function openSockets(baseURL, users) {
  return Promise.all(users.map((u) => openSocket(baseURL, { user: u, waiters: new Map(), ws: null })));
}

/** (Re)opens `socket.ws`. A socket that closes fails the messages waiting on it at once. */
function openSocket(baseURL, socket) {
  const u = socket.user;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${baseURL.replace(/^http/, "ws")}/parties/chat/user-${u.id}?token=${encodeURIComponent(u.token)}`);
    socket.ws = ws;
    const timer = setTimeout(() => reject(new Error("socket did not open within 30 s")), 30_000);
    ws.addEventListener("open", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    ws.addEventListener("error", () => reject(new Error(`socket to ${u.id} failed`)));
    ws.addEventListener("close", () => {
      for (const waiter of socket.waiters.values()) waiter({ event: "closed", data: {} }, performance.now());
    });
    ws.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      for (const waiter of socket.waiters.values()) waiter(frame, performance.now());
    });
  });
}

/** Sockets dropped since the last round (e.g. wrangler dev reloading) are opened again first. */
async function reopenClosed(baseURL, sockets) {
  const closed = sockets.filter((s) => s.ws.readyState !== WebSocket.OPEN);
  if (closed.length) console.log(`reopening ${closed.length} closed sockets`);
  await Promise.all(closed.map((s) => openSocket(baseURL, s)));
}

/**
 * Every socket sends one message opening a new chat, at once; resolves with each one's time from
 * send to first delta, once every reply has finished (or failed, or ROUND_TIMEOUT_MS passed).
 */
async function round(sockets, timeoutMs) {
  const firstDeltaMs = [];
  let errors = 0;
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise((resolve) => {
          const clientMessageId = randomUUID();
          let chatId = null;
          let sentAt = 0;
          let gotDelta = false;
          const done = (failed) => {
            clearTimeout(timer);
            socket.waiters.delete(clientMessageId);
            if (failed) errors++;
            resolve();
          };
          const timer = setTimeout(() => done(true), timeoutMs);
          socket.waiters.set(clientMessageId, (frame, at) => {
            const d = frame.data ?? {};
            if (frame.event === "new-message" && d.clientMessageId === clientMessageId) chatId = d.message.chatId;
            else if (frame.event === "message-delta" && d.chatId === chatId && !gotDelta) {
              gotDelta = true;
              firstDeltaMs.push(at - sentAt);
            } else if (frame.event === "new-message" && d.message?.chatId === chatId && d.message.role === "assistant") done(!gotDelta);
            else if (frame.event === "message-error" && (d.clientMessageId === clientMessageId || (chatId && d.chatId === chatId))) done(true);
            else if (frame.event === "closed") done(true);
          });
          sentAt = performance.now();
          socket.ws.send(JSON.stringify({ event: "send-message", data: { content: `How long does this take? ${CUES}`, clientMessageId, isGuest: false, userId: socket.user.id } }));
        }),
    ),
  );
  return { firstDeltaMs, errors };
}
