#!/usr/bin/env node
// Webhooks: what recording an event adds to a visitor turn, and how many deliveries one
// assistant's object, the tala-webhooks queue and its consumer sustain under `npm start`.
//
// Recording: per case (0 endpoints, 1 endpoint subscribed to message.answered, 10 of them), a
// fresh assistant, then POST /api/dev/hub-turns (local mode only, worker/services/dev/hub-turns.ts:
// the Worker runs each turn's beginTurn + finishTurn straight against the hub, no HTTP per turn, no
// model) with TURNS turns one at a time; finishTurn is where the event is recorded (an outbox row
// and the alarm armed), so its time per turn is compared across the cases (p50, p95: the Worker's
// clock around the RPC, whole milliseconds; mean: sub-millisecond over the run; wall per turn).
// The deliveries the 1- and 10-endpoint cases make run meanwhile, as they would.
// Deliveries: each 10-endpoint run's deliveries (10 per turn) to a local Node receiver answering
// 200, counted from the first received to the last: deliveries per second end to end (outbox
// alarm → queue batches → consumer → signed POST → report). Each run's deliveries drain before the
// next run starts; they run during their own turns, in the same object, as they would.
//
// Runs Tala from a snapshot of the sources (bench/lib/harness.mjs); needs `node scripts/build.mjs`.
// Writes bench/results/webhooks.json. Never a timed assertion in a test.
/* global performance -- Node 20 global */
import { createServer } from "node:http";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir, cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { seedUsers, snapshot, startMock, startTala } from "./lib/harness.mjs";

const TURNS = Number(process.env.TALA_BENCH_TURNS || 200);
const REPEATS = Number(process.env.TALA_BENCH_REPEATS || 3);
const SESSIONS = 30; // 10 turns each: under the per-session (50) and per-IP (30 a minute) limits
const QUESTION = "When are you open? [[ttft:0]] [[tokens:1]] [[delay:0]]";
const CASES = [0, 1, 10];
const offline = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

const here = join(dirname(fileURLToPath(import.meta.url)), "..");
if (!existsSync(join(here, "dist/public/index.html"))) {
  console.error("dist/public is missing: run `node scripts/build.mjs` first");
  process.exit(1);
}

const receiver = await startReceiver();
const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
const dir = mkdtempSync(join(tmpdir(), "tala-webhooks-bench-"));
const stateDir = join(dir, "state");
let tala;
let mock;
const recording = [];
const delivered = [];
try {
  const app = snapshot(here, join(dir, "app"));
  mock = await startMock(here);
  const [owner] = seedUsers(app, stateDir, 1, offline);
  tala = await startTala(app, stateDir, { LLM_BASE_URL: mock.url, LLM_MODEL: "mock-small" }, offline);
  const base = tala.baseURL;
  console.log(`Tala on ${base}; ${TURNS} turns per run, ${REPEATS} runs per case`);
  let network = 0;
  const fresh = async (name, endpoints) => {
    const { assistant: a } = await api(base, "/api/public-assistants", { token: owner.token, json: { name, config: { maxMessagesPerSession: 50, dailyLimit: 1000 } } });
    const { apiKey } = await api(base, `/api/public-assistants/${a._id}/raw-api-key`, { token: owner.token });
    for (let i = 0; i < endpoints; i++) {
      await api(base, `/api/public-assistants/${a._id}/webhooks`, { token: owner.token, json: { url: `${receiver.url}/hook/${a._id}`, events: ["message.answered"] } });
    }
    const sessions = [];
    for (let i = 0; i < SESSIONS; i++) {
      const ip = `10.${210 + Math.floor(network / 250)}.${network++ % 250}.7`;
      sessions.push({ id: (await api(base, "/api/widget/sessions", { key: apiKey, ip, json: {} })).sessionId, ip });
    }
    return { id: a._id, key: apiKey, sessions };
  };
  const turns = (a, n) => api(base, "/api/dev/hub-turns", { json: { key: a.key, sessions: a.sessions, question: QUESTION, turns: n, concurrency: 1 } });
  // Warm-up (not recorded): the isolate, the objects' code, the queue's consumer.
  const warm = await fresh("Warm-up", 1);
  await turns(warm, 30);
  await receiver.waitFor(warm.id, 30, 30_000);

  for (let r = 0; r < REPEATS; r++) {
    for (const endpoints of CASES) {
      const a = await fresh(`${endpoints} endpoints #${r + 1}`, endpoints);
      const started = performance.now();
      const out = await turns(a, TURNS);
      const wallMs = performance.now() - started;
      const row = { endpoints, run: r + 1, admitted: out.admitted, finishTurnMs: out.finishTurnMs, beginTurnMs: out.beginTurnMs, wallMsPerTurn: Math.round((wallMs / Math.max(1, out.admitted)) * 100) / 100 };
      recording.push(row);
      console.log(`${endpoints} endpoint(s), run ${r + 1}: finishTurn p50 ${out.finishTurnMs.p50} p95 ${out.finishTurnMs.p95} mean ${out.finishTurnMs.mean} ms; wall ${row.wallMsPerTurn} ms/turn`);
      // Every run's deliveries drain before the next run starts, so each run carries only its own.
      if (endpoints > 0) {
        const expected = out.admitted * endpoints;
        const got = await receiver.waitFor(a.id, expected, 300_000);
        const times = got.map((x) => x.at).sort((x, y) => x - y);
        const spanS = Math.max(0.001, (times.at(-1) - times[0]) / 1000);
        const run = { endpoints, expected, received: got.length, spanS: Math.round(spanS * 10) / 10, perSecond: Math.round((got.length / spanS) * 10) / 10 };
        delivered.push(run);
        console.log(`   deliveries: ${got.length}/${expected} in ${run.spanS} s = ${run.perSecond}/s`);
      }
    }
  }
} finally {
  await tala?.stop();
  mock?.stop();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
}

const loadAfter = loadavg().map((x) => Math.round(x * 100) / 100);
const summary = CASES.map((endpoints) => {
  const rows = recording.filter((x) => x.endpoints === endpoints);
  const median = (pick) => [...rows.map(pick)].sort((x, y) => x - y)[Math.floor(rows.length / 2)];
  return {
    endpoints,
    finishTurnP50Ms: median((x) => x.finishTurnMs.p50),
    finishTurnP95Ms: median((x) => x.finishTurnMs.p95),
    finishTurnMeanMs: median((x) => x.finishTurnMs.mean),
    wallMsPerTurn: median((x) => x.wallMsPerTurn),
  };
});
const tenRuns = delivered.filter((d) => d.endpoints === 10).sort((x, y) => x.perSecond - y.perSecond);
const deliveries = { ...tenRuns[Math.floor(tenRuns.length / 2)], runsPerSecond: tenRuns.map((d) => d.perSecond) };
const zero = summary.find((s) => s.endpoints === 0);
for (const s of summary) s.addedMeanMs = Math.round((s.finishTurnMeanMs - zero.finishTurnMeanMs) * 100) / 100;
console.table(summary);
writeFileSync(
  join(here, "bench/results/webhooks.json"),
  `${JSON.stringify(
    {
      bench: "webhooks",
      node: process.version,
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, loadAverage: { before: loadBefore, after: loadAfter } },
      method: `per case (endpoints subscribed to message.answered), ${REPEATS} runs of ${TURNS} turns one at a time on a fresh assistant through /api/dev/hub-turns (beginTurn + finishTurn from the Worker, no model); finishTurn records the event; medians of the runs; every run's deliveries drain before the next run; deliveries: the 10-endpoint runs' deliveries (10 per turn) to a local Node receiver answering 200, first to last received, median run`,
      recording: summary,
      runs: recording,
      deliveries,
      deliveryRuns: delivered,
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote bench/results/webhooks.json (load ${loadBefore[0]} → ${loadAfter[0]})`);

async function api(base, path, { token, key, ip, json } = {}) {
  const headers = {};
  if (token) headers.authorization = `Token ${token}`;
  if (key) headers["x-assistant-key"] = key;
  if (ip) headers["cf-connecting-ip"] = ip;
  if (json) headers["content-type"] = "application/json";
  const res = await fetch(`${base}${path}`, { method: json ? "POST" : "GET", headers, body: json ? JSON.stringify(json) : undefined });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

/** A Node receiver answering 200 to every POST /hook/<name>, counting per name with the time received. */
function startReceiver() {
  const got = new Map();
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const name = (req.url ?? "").split("/")[2] ?? "";
      const list = got.get(name) ?? [];
      list.push({ at: Date.now() });
      got.set(name, list);
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok");
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done(undefined))),
        async waitFor(name, count, ms) {
          const until = Date.now() + ms;
          while ((got.get(name)?.length ?? 0) < count && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
          return got.get(name) ?? [];
        },
      });
    });
  });
}
