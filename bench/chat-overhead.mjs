#!/usr/bin/env node
// Chat overhead: the time Tala adds before the first streamed token, on the four hot paths:
//   chat       a signed-in user's socket chat (/parties/chat/user-<id>), a new chat each turn
//   widget-ws  a widget visitor over the socket (/parties/widget/<sessionId>?key=)
//   widget-sse the widget's HTTP fallback (POST /api/widget/sessions/<id>/messages, SSE)
//   v1         POST /api/v1/chat/completions, stream, with a secret key
// overhead = (first token received) − (request sent) − (the mock model's fixed ttft), at 1, 50 and
// 200 concurrent turns, beside the local floor: GET /api/config (no storage touched) at the same concurrency. Every
// visitor, user and /v1 caller is its own network (cf-connecting-ip, honoured locally), as real
// visitors are, so per-IP throttles do not refuse the bench; each assistant's limits are set to
// their maximum through the API. Sockets are opened 200 at once and counted within 5 s.
//
// Then, with the D1 latency mode (worker/db/latency.ts: TALA_D1_DELAY_MS=60, every D1 query waits
// 60 ms as a far-away primary would), one turn per path at concurrency 1: the D1 queries sent
// before its first token (GET /api/dev/d1-log) and the time added, against 0 ms.
//
// Runs Tala from a snapshot of the sources (bench/lib/harness.mjs); TALA_BENCH_ROOT=<checkout>
// measures another checkout (it must have worker/db/latency.ts for the D1 figures) and stores the
// figures as `before` in bench/results/chat-overhead.json. Needs a built dist/ (npm run build).
//
// For investigation (nothing is written to bench/results then): TALA_BENCH_PATHS=widget-ws,v1 and
// TALA_BENCH_LEVELS=50,200 run a subset, without the D1 part; TALA_PROFILE=<dir> takes a CPU
// profile of the worker's isolate (wrangler dev's inspector) and the CPU each local process
// spent during every path × level, and writes them there (bench/lib/profile.mjs);
// TALA_BENCH_DIRECT=1 sends everything straight to the worker's own workerd, past wrangler's proxy.
// TALA_BENCH_DEVTOOLS=off runs wrangler dev without its DevTools relay (see bench/README.md) and
// stores the figures beside the default ones, as `afterDevtoolsOff` (`beforeDevtoolsOff` with TALA_BENCH_ROOT).
/* global WebSocket, performance, Blob, FormData, TextDecoder -- Node 20 globals (WebSocket with --experimental-websocket). */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, seedUsers, snapshot, startMock, startTala, stats, userWorkerURL } from "./lib/harness.mjs";
import { connectInspector, processCpu, summariseProfile, untilQuiet } from "./lib/profile.mjs";

const TTFT_MS = 200;
const CUES = `[[ttft:${TTFT_MS}]] [[tokens:8]] [[delay:5]]`;
const ALL_PATHS = ["chat", "widget-ws", "widget-sse", "v1"];
const ALL_LEVELS = [
  { concurrency: 1, rounds: 20 },
  { concurrency: 50, rounds: 2 },
  { concurrency: 200, rounds: 1 },
];
const only = (name) => process.env[name]?.split(",").map((x) => x.trim()).filter(Boolean);
const PATHS = only("TALA_BENCH_PATHS") ?? ALL_PATHS;
const LEVELS = only("TALA_BENCH_LEVELS") ? ALL_LEVELS.filter((l) => only("TALA_BENCH_LEVELS").includes(String(l.concurrency))) : ALL_LEVELS;
const PROFILE_DIR = process.env.TALA_PROFILE || null;
const DIRECT = process.env.TALA_BENCH_DIRECT === "1";
const IDLE_MS = Number(process.env.TALA_BENCH_IDLE_MS ?? 0);
const CPU_LOG = PROFILE_DIR !== null || process.env.TALA_BENCH_CPU === "1";
const DEVTOOLS_OFF = process.env.TALA_BENCH_DEVTOOLS === "off";
// wrangler dev's only switch for its inspector relay: it turns the relay off when it runs under
// VS Code's debugger (this variable set). Nothing else in the worker, its objects or the proxy changes.
const devtoolsEnv = DEVTOOLS_OFF ? { VSCODE_INSPECTOR_OPTIONS: "{}" } : {};
const SUBSET = PATHS.length < ALL_PATHS.length || LEVELS.length < ALL_LEVELS.length || CPU_LOG || DIRECT || IDLE_MS > 0;
const VISITORS = 200;
const TURN_TIMEOUT_MS = 60_000;
const OPEN_WITHIN_MS = 5_000;
const offline = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

if (typeof globalThis.WebSocket === "undefined") {
  const child = spawn(process.execPath, ["--experimental-websocket", "--no-warnings", fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  child.on("exit", (code) => process.exit(code ?? 1));
} else {
  await main();
}

async function main() {
  const here = join(dirname(fileURLToPath(import.meta.url)), "..");
  const root = process.env.TALA_BENCH_ROOT || here;
  const label = `${process.env.TALA_BENCH_ROOT ? "before" : "after"}${DEVTOOLS_OFF ? "DevtoolsOff" : ""}`;
  if (!existsSync(join(root, "dist/public/index.html"))) {
    console.error(`${root}/dist/public is missing: run \`npm run build\` there first`);
    process.exit(1);
  }
  const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
  const levels = await run(root, 0, LEVELS);
  const d1 = { 0: levels.d1, 60: SUBSET ? {} : (await run(root, 60, [])).d1 };
  const loadAfter = loadavg().map((x) => Math.round(x * 100) / 100);

  console.log(`\nTime Tala adds before the first token, ms (first token − sent − mock ttft ${TTFT_MS} ms)${DEVTOOLS_OFF ? ", wrangler's DevTools relay off" : ""}; floor = GET /api/config (no storage), model floor = the mock's stream through the Worker with no turn (POST /api/dev/model-floor), both at the same concurrency; CPU ms per turn of the worker's workerd and of the tooling (wrangler's Node and proxy workerd, the mock), over every round`);
  console.log(["path", "concurrent", "samples", "errors", "p50", "p95", "p99", "max", "floor p50", "floor p99", "model floor p50", "model floor p99", "worker CPU/turn", "tooling CPU/turn"].join("\t"));
  for (const r of levels.results) console.log([r.path, r.concurrency, r.samples, r.errors, r.p50, r.p95, r.p99, r.max, r.floor.p50, r.floor.p99, r.modelFloor?.p50 ?? "-", r.modelFloor?.p99 ?? "-", r.cpuMsPerTurn?.worker ?? "-", r.cpuMsPerTurn?.tooling ?? "-"].join("\t"));
  console.log(`\nwrangler dev said "Network connection lost" ${levels.tooling.connectionLost} times, "code had hung" ${levels.tooling.hung} times, logged ${levels.tooling.errors} errors`);
  console.log(`\nSockets opened at once (${VISITORS}), open within ${OPEN_WITHIN_MS / 1000} s: ${JSON.stringify(levels.sockets)}`);
  console.log("\nD1 queries before the first token, and the time added at 0 and 60 ms per D1 query (one turn, concurrency 1)");
  console.log(["path", "D1 queries", "added at 0 ms", "added at 60 ms", "queries"].join("\t"));
  for (const path of SUBSET ? [] : PATHS) {
    const [a, b] = [d1[0][path], d1[60][path]];
    console.log([path, b?.queries ?? "?", a?.addedMs ?? "?", b?.addedMs ?? "?", (b?.sql ?? []).join(" | ")].join("\t"));
  }

  if (SUBSET) {
    console.log("\na subset or a profiled run: bench/results/chat-overhead.json left as it was");
    return;
  }
  const file = join(here, "bench/results/chat-overhead.json");
  const previous = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const figures = { date: new Date().toISOString(), root, loadAverage: { before: loadBefore, after: loadAfter }, results: levels.results, sockets: levels.sockets, d1 };
  const out = {
    bench: "chat-overhead",
    node: process.version,
    mockTtftMs: TTFT_MS,
    method: "first token − sent − mock ttft; floor: GET /api/config at the same concurrency; model floor: the mock's stream through the Worker with no turn (POST /api/dev/model-floor), same concurrency; cpuMsPerTurn: CPU of the worker's workerd and of the tooling (wrangler's Node, its proxy workerd, the mock) over every round's turns / turns (/proc, 10 ms ticks); D1 latency mode for the query counts; afterDevtoolsOff / beforeDevtoolsOff: wrangler dev without its DevTools relay",
    before: label === "before" ? figures : previous.before,
    beforeDevtoolsOff: label === "beforeDevtoolsOff" ? figures : previous.beforeDevtoolsOff,
    after: label === "after" ? figures : previous.after,
    afterDevtoolsOff: label === "afterDevtoolsOff" ? figures : previous.afterDevtoolsOff,
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\nwrote bench/results/chat-overhead.json (${label})`);
}

/** One Tala with TALA_D1_DELAY_MS=`delay`: the levels' figures (if any), then one counted turn per path. */
async function run(root, delay, levels) {
  const dir = mkdtempSync(join(tmpdir(), "tala-chat-bench-"));
  const stateDir = join(dir, "state");
  const app = snapshot(root, join(dir, "app"));
  let tala;
  let mock;
  try {
    mock = await startMock(dirname(dirname(fileURLToPath(import.meta.url))));
    const users = seedUsers(app, stateDir, VISITORS + 1, offline);
    const inspectorPort = PROFILE_DIR ? await freePort() : undefined;
    const wranglerInspectPort = PROFILE_DIR ? await freePort() : undefined;
    tala = await startTala(app, stateDir, { LLM_BASE_URL: mock.url, LLM_MODEL: "mock-small", TALA_D1_DELAY_MS: String(delay) }, { ...offline, ...devtoolsEnv }, { inspectorPort, wranglerInspectPort });
    const profiler = PROFILE_DIR ? await connectInspector(inspectorPort) : null;
    const wranglerProfiler = PROFILE_DIR ? await connectInspector(wranglerInspectPort) : null;
    if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
    const base = DIRECT ? await userWorkerURL(tala) : tala.baseURL;
    if (!base) throw new Error("the worker's own address was not found");
    console.log(`Tala on ${base}${DIRECT ? ` (straight to the worker, past wrangler's proxy on ${tala.baseURL})` : ""} (D1 delay ${delay} ms), mock ttft ${TTFT_MS} ms`);
    const owner = users[VISITORS];
    const setup = await setUp(base, owner, users.slice(0, VISITORS));
    const sockets = setup.sockets;

    // Warm-up, not recorded: every object's first turn pays for loading and first queries.
    for (const path of PATHS) await turns(base, setup, path, 0, VISITORS);
    // TALA_BENCH_IDLE_MS: wait that long first, so the levels run against objects the runtime
    // evicted (a visitor's room and per-IP counter after ~10 s idle): a human visitor's usual turn.
    if (IDLE_MS) {
      console.log(`idle ${IDLE_MS} ms: the objects are evicted before the levels`);
      await sleep(IDLE_MS);
    }
    await sleep(TTFT_MS + 500);

    const results = [];
    for (const level of levels) {
      for (const path of PATHS) {
        const samples = [];
        const admitted = [];
        let errors = 0;
        const floor = [];
        const modelFloor = [];
        const turnsCpuS = {};
        const cpu = processCpu([tala.pid, mock.pid]);
        const profiled = { floor: null, turns: null };
        for (let r = 0; r < level.rounds; r++) {
          // What an earlier round left running (chat titles are written after the replies) is not this one's.
          await untilQuiet([tala.pid, mock.pid]);
          if (profiler && r === 0) await profiler.start();
          cpu.begin();
          floor.push(...(await healthRound(base, level.concurrency)));
          if (r === 0) profiled.floorCpu = cpu.end();
          if (profiler && r === 0) profiled.floor = await profiler.stop();
          modelFloor.push(...(await modelFloorRound(base, level.concurrency)));
          await untilQuiet([tala.pid, mock.pid]);
          // Level 1 uses another visitor each round (per-visitor counters stay far from their limits).
          const from = level.concurrency === 1 ? r : 0;
          if (profiler && r === 0) await Promise.all([profiler.start(), wranglerProfiler.start()]);
          cpu.begin();
          const out = await turns(base, setup, path, from, level.concurrency);
          const spent = cpu.end();
          if (r === 0) profiled.turnsCpu = spent;
          for (const [k, v] of Object.entries(spent.cpuS)) turnsCpuS[k] = (turnsCpuS[k] ?? 0) + v;
          if (profiler && r === 0) [profiled.turns, profiled.wrangler] = await Promise.all([profiler.stop(), wranglerProfiler.stop()]);
          samples.push(...out.ms.map((ms) => ms - TTFT_MS));
          admitted.push(...out.admitMs);
          errors += out.errors;
          await sleep(TTFT_MS + 300);
        }
        const s = stats(samples);
        const f = stats(floor);
        const m = modelFloor.length ? stats(modelFloor.map((ms) => ms - TTFT_MS)) : null;
        // Sent → the echo of the message as saved: the admission (auth, counters, history, save, retrieval); the rest is the model's path.
        const a = admitted.length ? stats(admitted) : null;
        if (profiler) writeProfile(`${path}-${level.concurrency}`, profiled);
        else if (CPU_LOG) console.log(`    CPU s, first round: floor ${JSON.stringify(profiled.floorCpu.cpuS)}; turns ${JSON.stringify(profiled.turnsCpu.cpuS)}`);
        // At 1 concurrent a turn is mostly waiting, and the runtime's background work in that time is counted against it: no figure.
        const cpuMsPerTurn = level.concurrency > 1 ? perTurn(turnsCpuS, level.concurrency * level.rounds) : null;
        results.push({ path, concurrency: level.concurrency, samples: samples.length, errors, ...s, floor: { p50: f.p50, p99: f.p99 }, modelFloor: m && { p50: m.p50, p99: m.p99 }, admitted: a && { p50: a.p50, p99: a.p99 }, cpuMsPerTurn });
        console.log(`  ${path} ×${level.concurrency}: p50 ${s.p50} p99 ${s.p99} (floor ${f.p50}/${f.p99}, model floor ${m?.p50 ?? "-"}/${m?.p99 ?? "-"}, admitted after ${a?.p50 ?? "-"}/${a?.p99 ?? "-"}), CPU ms a turn: worker ${cpuMsPerTurn?.worker ?? "-"}, tooling ${cpuMsPerTurn?.tooling ?? "-"}, errors ${errors}`);
      }
    }

    // One counted turn per path: the D1 queries sent before its first token.
    const d1 = {};
    for (const path of PATHS) {
      await sleep(2000); // earlier turns' background writes (chat titles) land before the window opens
      await fetch(`${base}/api/dev/d1-log`, { method: "DELETE" });
      const sentAt = Date.now();
      const out = await turns(base, setup, path, VISITORS - 1, 1, { wallClock: true });
      const log = await (await fetch(`${base}/api/dev/d1-log`)).json();
      const first = out.firstAt[0];
      const before = first ? log.queries.filter((q) => q.at >= sentAt - 5 && q.at <= first) : [];
      d1[path] = { queries: first ? before.length : null, addedMs: out.ms[0] !== undefined ? Math.round((out.ms[0] - TTFT_MS) * 10) / 10 : null, sql: before.map((q) => q.sql.slice(0, 48)) };
    }
    for (const s of sockets.chat.concat(sockets.widget)) s.ws?.close();
    profiler?.close();
    wranglerProfiler?.close();
    await sleep(500);
    const tooling = { ...tala.said };
    return { results, sockets: setup.opened, d1, tooling };
  } finally {
    await tala?.stop();
    mock?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes a path × level's two profiles (the floor's round, the turns' round) and prints what they say. */
function writeProfile(name, { floor, turns, floorCpu, turnsCpu, wrangler }) {
  const summary = { floor: { cpu: floorCpu, ...summariseProfile(floor) }, turns: { cpu: turnsCpu, ...summariseProfile(turns) }, wranglerNode: summariseProfile(wrangler) };
  writeFileSync(join(PROFILE_DIR, `${name}.wrangler-node.cpuprofile`), JSON.stringify(wrangler));
  writeFileSync(join(PROFILE_DIR, `${name}.turns.cpuprofile`), JSON.stringify(turns));
  writeFileSync(join(PROFILE_DIR, `${name}.floor.cpuprofile`), JSON.stringify(floor));
  writeFileSync(join(PROFILE_DIR, `${name}.summary.json`), JSON.stringify(summary, null, 2));
  const t = summary.turns;
  console.log(`    profile ${name}: wall ${t.wallMs} ms, isolate ${JSON.stringify(t.kindsMs)}, processes ${JSON.stringify(t.cpu)}`);
  console.log(`    floor: wall ${summary.floor.wallMs} ms, isolate ${JSON.stringify(summary.floor.kindsMs)}, processes ${JSON.stringify(summary.floor.cpu)}`);
  for (const { fn, ms } of t.self.slice(0, 12)) console.log(`      self ${ms} ms  ${fn}`);
  console.log(`    wrangler's Node: ${JSON.stringify(summary.wranglerNode.kindsMs)}`);
  for (const { fn, ms } of summary.wranglerNode.self.slice(0, 8)) console.log(`      self ${ms} ms  ${fn}`);
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Visitor i's own network on `path` (cf-connecting-ip is honoured locally): the visitors of two
 * paths are different people, so none of them writes to two assistants, and none shares the
 * per-IP message throttle with another.
 */
function ipOf(i, path) {
  const network = { chat: 1, "widget-ws": 11, "widget-sse": 21, v1: 31 }[path];
  return `10.${network + Math.floor(i / 250)}.${i % 250}.7`;
}

async function api(base, path, { token, key, ip, json, form, method } = {}) {
  const headers = {};
  if (token) headers.authorization = `Token ${token}`;
  if (key) headers["x-assistant-key"] = key;
  if (ip) headers["cf-connecting-ip"] = ip;
  if (json) headers["content-type"] = "application/json";
  const res = await fetch(`${base}${path}`, { method: method ?? (json || form ? "POST" : "GET"), headers, body: json ? JSON.stringify(json) : form });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method ?? "POST"} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

/** Three assistants (one per widget path and /v1, so their counters stay apart), a visitor session each, and the sockets. */
async function setUp(base, owner, users) {
  const knowledge = "Opening hours: the shop is open from 9 to 18, Monday to Saturday.\n\nDelivery takes two to four days in Morocco.";
  const assistant = async (name) => {
    const { assistant: a } = await api(base, "/api/public-assistants", {
      token: owner.token,
      json: { name, config: { maxMessagesPerSession: 50, dailyLimit: 1000 } },
    });
    const form = new FormData();
    form.append("files", new Blob([knowledge], { type: "text/plain" }), "shop.txt");
    await api(base, `/api/public-assistants/${a._id}/files`, { token: owner.token, form });
    const { apiKey } = await api(base, `/api/public-assistants/${a._id}/raw-api-key`, { token: owner.token });
    return { id: a._id, key: apiKey };
  };
  const ws = await assistant("Bench socket");
  const sse = await assistant("Bench SSE");
  const v1 = await assistant("Bench v1");
  const { key: secretKey } = await api(base, `/api/public-assistants/${v1.id}/secret-keys`, { token: owner.token, json: { name: "bench" } });
  const sessions = async (a, path) => {
    const out = [];
    for (let i = 0; i < VISITORS; i += 25) {
      out.push(...(await Promise.all(Array.from({ length: Math.min(25, VISITORS - i) }, (_, j) => api(base, "/api/widget/sessions", { key: a.key, ip: ipOf(i + j, path), json: {} })))));
    }
    return out.map((s) => s.sessionId);
  };
  const wsSessions = await sessions(ws, "widget-ws");
  const sseSessions = await sessions(sse, "widget-sse");

  const opened = {};
  const chat = users.map((u, i) => ({ url: `${base.replace(/^http/, "ws")}/parties/chat/user-${u.id}?token=${encodeURIComponent(u.token)}`, ip: ipOf(i, "chat"), user: u, waiters: new Map() }));
  const widget = wsSessions.map((id, i) => ({ url: `${base.replace(/^http/, "ws")}/parties/widget/${id}?key=${encodeURIComponent(ws.key)}`, ip: ipOf(i, "widget-ws"), sessionId: id, waiters: new Map() }));
  for (const [name, list] of [["chat", chat], ["widget", widget]]) {
    const started = performance.now();
    const times = await Promise.all(list.map((s) => openSocket(s).then(() => performance.now() - started, () => Infinity)));
    opened[name] = { sockets: list.length, within5s: times.filter((t) => t <= OPEN_WITHIN_MS).length, p99OpenMs: stats(times.filter(Number.isFinite)).p99 };
  }
  return { sockets: { chat, widget }, opened, sse: { key: sse.key, sessions: sseSessions }, v1: { secretKey } };
}

function openSocket(s) {
  return new Promise((resolve, reject) => {
    // undici's WebSocket takes headers (not in the standard): each visitor is its own network.
    const ws = new WebSocket(s.url, { headers: { "cf-connecting-ip": s.ip } });
    s.ws = ws;
    const timer = setTimeout(() => reject(new Error("socket did not open within 30 s")), 30_000);
    ws.addEventListener("open", () => {
      clearTimeout(timer);
      resolve(s);
    });
    ws.addEventListener("error", () => reject(new Error("socket failed")));
    ws.addEventListener("close", () => {
      for (const waiter of s.waiters.values()) waiter({ event: "closed", data: {} }, performance.now());
    });
    ws.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      for (const waiter of s.waiters.values()) waiter(frame, performance.now());
    });
  });
}

async function ensureOpen(s) {
  if (s.ws?.readyState !== WebSocket.OPEN) await openSocket(s);
}

/** `count` turns at once on `path`, by visitors from..from+count; each one's ms to first token. */
async function turns(base, setup, path, from, count, opts = {}) {
  const ms = [];
  const admitMs = [];
  const firstAt = [];
  let errors = 0;
  const reasons = new Map();
  const one = async (i) => {
    const sentAt = performance.now();
    const sentWall = Date.now();
    const times = await firstToken(base, setup, path, i).catch((error) => {
      reasons.set(String(error?.message ?? error), (reasons.get(String(error?.message ?? error)) ?? 0) + 1);
      return null;
    });
    if (times === null) errors++;
    else {
      const at = times.first;
      ms.push(at - sentAt);
      if (times.echo !== null) admitMs.push(times.echo - sentAt);
      if (opts.wallClock) firstAt.push(sentWall + (at - sentAt));
    }
  };
  await Promise.all(Array.from({ length: count }, (_, k) => one((from + k) % VISITORS)));
  if (reasons.size) console.log(`    ${path} ×${count} failed: ${JSON.stringify(Object.fromEntries(reasons))}`);
  return { ms, admitMs, errors, firstAt };
}

/**
 * Sends one turn on `path` as visitor `i`; resolves, after the reply ends, with performance.now()
 * at its first token and at the echo of the message as saved (`new-message`: the turn admitted;
 * null on /v1, which echoes nothing).
 */
async function firstToken(base, setup, path, i) {
  const content = `When are you open? ${CUES}`;
  if (path === "chat" || path === "widget-ws") {
    const s = path === "chat" ? setup.sockets.chat[i] : setup.sockets.widget[i];
    await ensureOpen(s);
    const clientMessageId = randomUUID();
    return new Promise((resolve, reject) => {
      let first = null;
      let echo = null;
      let why = null;
      let chatId = path === "widget-ws" ? s.sessionId : null;
      const done = (ok) => {
        clearTimeout(timer);
        s.waiters.delete(clientMessageId);
        if (ok && first !== null) resolve({ first, echo });
        else reject(new Error(why ?? "turn failed"));
      };
      const timer = setTimeout(() => {
        why = "no answer within the turn timeout";
        done(false);
      }, TURN_TIMEOUT_MS);
      s.waiters.set(clientMessageId, (frame, at) => {
        const d = frame.data ?? {};
        if (frame.event === "new-message" && d.clientMessageId === clientMessageId) {
          echo ??= at;
          if (path === "chat") chatId = d.message.chatId;
        } else if (frame.event === "message-delta" && d.chatId === chatId && first === null) first = at;
        else if (frame.event === "new-message" && d.message?.role === "assistant" && (d.message.chatId === chatId || path === "widget-ws") && first !== null) done(true);
        else if (frame.event === "message-error" && (d.clientMessageId === clientMessageId || d.chatId === chatId)) {
          why = `message-error: ${d.error}`;
          done(false);
        } else if (frame.event === "closed") {
          why = "socket closed";
          done(false);
        }
      });
      const data = path === "chat" ? { content, clientMessageId, isGuest: false, userId: s.user.id } : { content, clientMessageId, files: [] };
      s.ws.send(JSON.stringify({ event: "send-message", data }));
    });
  }
  const request =
    path === "widget-sse"
      ? fetch(`${base}/api/widget/sessions/${setup.sse.sessions[i]}/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream", "x-assistant-key": setup.sse.key, "cf-connecting-ip": ipOf(i, "widget-sse") },
          body: JSON.stringify({ content, clientMessageId: randomUUID(), files: [] }),
        })
      : fetch(`${base}/api/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${setup.v1.secretKey}`, "cf-connecting-ip": ipOf(i, "v1") },
          body: JSON.stringify({ stream: true, messages: [{ role: "user", content }] }),
        });
  const res = await request;
  if (!res.ok || !res.body) throw new Error(`${path}: ${res.status} ${(await res.text().catch(() => "")).slice(0, 120)}`);
  const isFirst = path === "widget-sse" ? (text) => text.includes("event: message-delta") : (text) => /"content":"[^"]/.test(text);
  const decoder = new TextDecoder();
  let text = "";
  let first = null;
  let echo = null;
  for await (const chunk of res.body) {
    text += decoder.decode(chunk, { stream: true });
    if (echo === null && path === "widget-sse" && text.includes("event: new-message")) echo = performance.now();
    if (first === null && isFirst(text)) first = performance.now();
    if (text.length > 200_000) break;
  }
  if (first === null) throw new Error(`${path}: no token in ${JSON.stringify(text.slice(0, 300))}`);
  return { first, echo };
}

/** `count` streams of the mock straight through the Worker (no turn); each one's ms to its first chunk. [] when the route is missing (an older checkout). */
async function modelFloorRound(base, count) {
  const out = await Promise.all(
    Array.from({ length: count }, async () => {
      const t = performance.now();
      const res = await fetch(`${base}/api/dev/model-floor`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ content: `When are you open? ${CUES}` }) });
      if (!res.ok || !res.body) {
        if (res.status !== 404) console.log(`    model floor: HTTP ${res.status}`);
        return null;
      }
      const reader = res.body.getReader();
      let first = null;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (first === null && value?.length) first = performance.now() - t;
      }
      if (first === null) console.log("    model floor: a stream ended without a chunk");
      return first;
    }),
  );
  return out.filter((ms) => ms !== null);
}

/** CPU ms per turn: the worker's workerd, and the local tooling around it (wrangler's Node and proxy workerd, the mock model). */
function perTurn(cpuS, turns) {
  const ms = (...names) => Math.round((names.reduce((sum, n) => sum + (cpuS[n] ?? 0), 0) * 1000 * 10) / turns) / 10;
  return { worker: ms("workerd (the worker)"), tooling: ms("wrangler (node)", "workerd (wrangler's proxy)", "mock model") };
}

/** `count` GET /api/config at once: each one's ms (the local floor at that concurrency). */
async function healthRound(base, count) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const t = performance.now();
      await (await fetch(`${base}/api/config`)).text();
      return performance.now() - t;
    }),
  );
}
