#!/usr/bin/env node
// Hub throughput: how many visitor turns one assistant's Durable Object (AssistantHub) serves per
// second on this machine, and how much of a turn is the hub.
//
// Per concurrency level (closed loop: each of C visitors sends its next turn when the last one
// ended), two measurements, each against a fresh assistant (the daily limit is at most 1000
// messages, so one assistant cannot serve every level) with SESSIONS visitor sessions, each its
// own network:
//   hub only     POST /api/dev/hub-turns (local mode only, worker/services/dev/hub-turns.ts): the
//                Worker runs the `beginTurn` + `finishTurn` pair of a real turn straight against
//                the hub (per-IP throttle and retrieval included), no HTTP per turn, no model:
//                turns/s and each RPC's p50/p99 as the Worker waited for it.
//   end to end   the widget's SSE turn (POST /api/widget/sessions/:id/messages): D1 key read,
//                beginTurn, the model (the mock: first token at once, one token), finishTurn, the
//                stream closed: turns/s and the turn's p50/p99 as the client saw it.
// The hub's share of a turn = hub-only time per turn / end-to-end time per turn at the same
// concurrency; with TALA_PROFILE=<dir>, CPU profiles of the worker's isolate during both, and the
// CPU every local process spent (bench/lib/profile.mjs), are written there as well.
//
// Runs Tala from a snapshot of the sources (bench/lib/harness.mjs); needs npm run build.
// TALA_BENCH_ROOT=<checkout> measures another checkout (built) and stores it as `before`;
// TALA_BENCH_DEVTOOLS=off runs wrangler dev without its DevTools relay (`afterDevtoolsOff`,
// `beforeDevtoolsOff`). Writes bench/results/hub-throughput.json. Never a timed assertion in a test.
/* global performance, Blob, FormData, crypto -- Node 20 globals */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, seedUsers, snapshot, startMock, startTala, stats } from "./lib/harness.mjs";
import { connectInspector, processCpu, summariseProfile } from "./lib/profile.mjs";

const LEVELS = (process.env.TALA_BENCH_LEVELS?.split(",").map(Number) ?? [1, 10, 50]).filter((n) => n > 0);
const TURNS = 400; // per measurement: under the assistant's daily limit (1000 at most)
const REPEATS = Number(process.env.TALA_BENCH_REPEATS || 3); // the machine is shared: the median run is kept, every run's turns/s listed
const SESSIONS = 40; // 10 turns each: under the per-session (50) and per-IP (30 a minute) limits
const QUESTION = "When are you open? [[ttft:0]] [[tokens:1]] [[delay:0]]";
const PROFILE_DIR = process.env.TALA_PROFILE || null;
const DEVTOOLS_OFF = process.env.TALA_BENCH_DEVTOOLS === "off";
// wrangler dev's only switch for its inspector relay (see chat-overhead.mjs).
const offline = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true", ...(DEVTOOLS_OFF ? { VSCODE_INSPECTOR_OPTIONS: "{}" } : {}) };

if (typeof globalThis.WebSocket === "undefined" && PROFILE_DIR) {
  // The inspector client needs Node 20's WebSocket.
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
    console.error("dist/public is missing: run `npm run build` first");
    process.exit(1);
  }
  const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
  const dir = mkdtempSync(join(tmpdir(), "tala-hub-bench-"));
  const stateDir = join(dir, "state");
  let tala;
  let mock;
  const levels = [];
  try {
    const app = snapshot(root, join(dir, "app"));
    mock = await startMock(root);
    const [owner] = seedUsers(app, stateDir, 1, offline);
    const inspectorPort = PROFILE_DIR ? await freePort() : undefined;
    tala = await startTala(app, stateDir, { LLM_BASE_URL: mock.url, LLM_MODEL: "mock-small" }, offline, { inspectorPort });
    const profiler = PROFILE_DIR ? await connectInspector(inspectorPort) : null;
    if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
    const base = tala.baseURL;
    console.log(`Tala on ${base}; ${TURNS} turns per measurement over ${SESSIONS} sessions of one assistant`);
    let network = 0;
    const fresh = async (name) => {
      const a = await assistant(base, owner.token, name);
      const sessions = [];
      for (let i = 0; i < SESSIONS; i += 20) {
        const batch = Array.from({ length: Math.min(20, SESSIONS - i) }, () => ipOf(network++));
        sessions.push(...(await Promise.all(batch.map(async (ip) => ({ id: (await api(base, "/api/widget/sessions", { key: a.key, ip, json: {} })).sessionId, ip })))));
      }
      return { ...a, sessions };
    };
    // Warm-up (not recorded): the isolate, the RateLimiter objects' code, the mock's connections.
    // Without the DevTools relay wrangler dev may restart the worker once just after it answered
    // its first request ("Your worker restarted mid-request"): the warm-up waits that out.
    let warm;
    for (let attempt = 1; !warm; attempt++) {
      try {
        warm = await fresh("Warm-up");
      } catch (error) {
        if (attempt === 5) throw error;
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
    await api(base, "/api/dev/hub-turns", { json: { key: warm.key, sessions: warm.sessions, question: QUESTION, turns: 40, concurrency: 10 } });
    await sseTurns(base, warm, 40, 10);

    for (const concurrency of LEVELS) {
      const profiled = {};
      const measure = async (name, run) => {
        const cpu = processCpu([tala.pid, mock.pid]);
        if (profiler) await profiler.start();
        cpu.begin();
        const out = await run();
        const used = cpu.end();
        if (profiler) {
          const profile = await profiler.stop();
          writeFileSync(join(PROFILE_DIR, `hub-${name}-${concurrency}.cpuprofile`), JSON.stringify(profile));
          profiled[name] = hubShare(profile);
        }
        return { ...out, cpuS: used.cpuS, cpuMsPerTurn: perTurn(used.cpuS, out.admitted ?? out.turns) };
      };
      // Each repeat on fresh assistants, hub-only and end-to-end alternating, so both see the same machine.
      const hubRuns = [];
      const e2eRuns = [];
      for (let r = 0; r < REPEATS; r++) {
        const hubAssistant = await fresh(`Hub only ×${concurrency} #${r + 1}`);
        hubRuns.push(
          await measure("only", () =>
            api(base, "/api/dev/hub-turns", { json: { key: hubAssistant.key, sessions: hubAssistant.sessions, question: QUESTION, turns: TURNS, concurrency } }),
          ),
        );
        const e2eAssistant = await fresh(`End to end ×${concurrency} #${r + 1}`);
        e2eRuns.push(await measure("e2e", () => sseTurns(base, e2eAssistant, TURNS, concurrency)));
      }
      const median = (runs) => [...runs].sort((a, b) => a.turnsPerSecond - b.turnsPerSecond)[Math.floor(runs.length / 2)];
      const hubOnly = { ...median(hubRuns), runsTurnsPerSecond: hubRuns.map((x) => x.turnsPerSecond) };
      const endToEnd = { ...median(e2eRuns), runsTurnsPerSecond: e2eRuns.map((x) => x.turnsPerSecond) };
      const hubMsPerTurn = hubOnly.wallMs / Math.max(1, hubOnly.admitted);
      const e2eMsPerTurn = endToEnd.wallMs / Math.max(1, endToEnd.turns);
      const level = {
        concurrency,
        hubOnly,
        endToEnd,
        hubShareOfTurnWall: Math.round((hubMsPerTurn / e2eMsPerTurn) * 100) / 100,
        ...(PROFILE_DIR ? { isolateProfile: profiled } : {}),
      };
      levels.push(level);
      console.log(
        `×${concurrency}: hub only ${hubOnly.turnsPerSecond} turns/s [runs ${hubOnly.runsTurnsPerSecond.join(", ")}] (beginTurn p50 ${hubOnly.beginTurnMs.p50} p99 ${hubOnly.beginTurnMs.p99} ms, finishTurn p50 ${hubOnly.finishTurnMs.p50} p99 ${hubOnly.finishTurnMs.p99} ms, refused ${hubOnly.refused}); ` +
          `end to end ${endToEnd.turnsPerSecond} turns/s [runs ${endToEnd.runsTurnsPerSecond.join(", ")}] (turn p50 ${endToEnd.turnMs.p50} p99 ${endToEnd.turnMs.p99} ms, errors ${endToEnd.errors}); hub = ${Math.round(level.hubShareOfTurnWall * 100)}% of a turn's time`,
      );
      if (PROFILE_DIR) console.log(`   isolate profile: ${JSON.stringify(profiled)}`);
    }
  } finally {
    await tala?.stop();
    mock?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const loadAfter = loadavg().map((x) => Math.round(x * 100) / 100);
  if (PROFILE_DIR || process.env.TALA_BENCH_LEVELS) {
    console.log("\na subset or a profiled run: bench/results/hub-throughput.json left as it was");
    return;
  }
  const file = join(here, "bench/results/hub-throughput.json");
  const previous = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const figures = { date: new Date().toISOString(), root, loadAverage: { before: loadBefore, after: loadAfter }, levels };
  const keep = (key) => (label === key ? figures : previous[key]);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        bench: "hub-throughput",
        node: process.version,
        method: `per level, ${REPEATS} runs (median kept) of ${TURNS} closed-loop turns over ${SESSIONS} sessions of one fresh assistant: hub only = beginTurn + finishTurn from the Worker (/api/dev/hub-turns); end to end = the widget's SSE turn with the mock model (first token at once, one token); cpuS = CPU seconds per local process; before = TALA_BENCH_ROOT's checkout, DevtoolsOff = wrangler dev without its DevTools relay`,
        before: keep("before"),
        beforeDevtoolsOff: keep("beforeDevtoolsOff"),
        after: keep("after"),
        afterDevtoolsOff: keep("afterDevtoolsOff"),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwrote ${label} in bench/results/hub-throughput.json (load ${loadBefore[0]} → ${loadAfter[0]})`);
}

function ipOf(i) {
  return `10.${200 + Math.floor(i / 250)}.${i % 250}.9`;
}

/** CPU ms per turn of each process. */
function perTurn(cpuS, turns) {
  const out = {};
  for (const [k, v] of Object.entries(cpuS)) if (!k.includes(" / ")) out[k] = Math.round((v / Math.max(1, turns)) * 100000) / 100;
  return out;
}

async function api(base, path, { token, key, ip, json, form } = {}) {
  const headers = {};
  if (token) headers.authorization = `Token ${token}`;
  if (key) headers["x-assistant-key"] = key;
  if (ip) headers["cf-connecting-ip"] = ip;
  if (json) headers["content-type"] = "application/json";
  const res = await fetch(`${base}${path}`, { method: json || form ? "POST" : "GET", headers, body: json ? JSON.stringify(json) : form });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

/** An assistant with the highest limits and one small knowledge file; its publishable key. */
async function assistant(base, token, name) {
  const { assistant: a } = await api(base, "/api/public-assistants", { token, json: { name, config: { maxMessagesPerSession: 50, dailyLimit: 1000 } } });
  const form = new FormData();
  form.append("files", new Blob(["Opening hours: the shop is open from 9 to 18, Monday to Saturday.\n\nDelivery takes two to four days."], { type: "text/plain" }), "shop.txt");
  await api(base, `/api/public-assistants/${a._id}/files`, { token, form });
  const { apiKey } = await api(base, `/api/public-assistants/${a._id}/raw-api-key`, { token });
  return { id: a._id, key: apiKey };
}

/** `turns` SSE turns, `concurrency` at a time (closed loop), each to its end; turns/s and each turn's time. */
async function sseTurns(base, a, turns, concurrency) {
  const ms = [];
  let errors = 0;
  let next = 0;
  const one = async () => {
    for (let i = next++; i < turns; i = next++) {
      const s = a.sessions[i % a.sessions.length];
      const t = performance.now();
      try {
        const res = await fetch(`${base}/api/widget/sessions/${s.id}/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream", "x-assistant-key": a.key, "cf-connecting-ip": s.ip },
          body: JSON.stringify({ content: QUESTION, clientMessageId: crypto.randomUUID(), files: [] }),
        });
        const text = await res.text();
        if (!res.ok || !text.includes("event: remaining-messages") || text.includes("event: message-error")) throw new Error(`${res.status}`);
        ms.push(performance.now() - t);
      } catch {
        errors++;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, one));
  const wallMs = performance.now() - started;
  return { turns: ms.length, errors, wallMs: Math.round(wallMs), turnsPerSecond: Math.round((ms.length / wallMs) * 10000) / 10, turnMs: stats(ms) };
}

/** From an isolate profile: busy time, and the part spent in the hub's turn RPCs (and the RateLimiter call they make). */
function hubShare(profile) {
  const s = summariseProfile(profile, 400);
  const total = (name) => s.total.filter((x) => x.fn.startsWith(`${name} `)).reduce((a, x) => a + x.ms, 0);
  const busy = s.kindsMs.js + s.kindsMs.gc + s.kindsMs.program;
  const hub = total("beginTurn") + total("finishTurn") + total("consume");
  return { wallMs: s.wallMs, busyMs: Math.round(busy), hubMs: Math.round(hub), hubShareOfBusy: Math.round((hub / Math.max(1, busy)) * 100) / 100 };
}
