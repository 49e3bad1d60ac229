#!/usr/bin/env node
// The retention pass at 1,000,000 stored messages in one assistant: the deletion the assistant's
// object runs from its `retention` alarm (worker/assistant/privacy-store.ts, batches of
// privacyLimits.retentionBatchSessions, as worker/assistant/hub-privacy.ts runs them) in a Durable
// Object under Miniflare (bench/lib/retention-worker.ts), its SQLite persisted to a temporary
// folder. The object is seeded inside itself (100,000 conversations × 10 messages, a lead every
// 10 conversations, 5,000 Insights questions linking 5 conversations each, 2,000 kept webhook
// events); 90% of the conversations are older than the 30-day retention. Then the whole pass,
// one batch per RPC timed from Node (so each time includes one RPC's round trip, measured apart
// as `rpc`), grouped in runs of privacyLimits.retentionBatchesPerRun batches as the alarm runs
// them (here back to back, without the 30 s between runs). Memory: the workerd process's resident
// set from /proc (its peak reset after seeding, and sampled every 25 ms), which holds the whole
// runtime, every isolate's heap, SQLite's page cache and whatever of the database file the kernel
// counts as resident; not the object's JS heap alone (performance.memory does not exist in
// workerd). Baselines in the same run: one batch on an empty store, and the same batches on the
// same 1,000,000 messages without the two indexes the pass reads (sessions by last activity,
// messages by session).
//
//   node bench/retention.mjs   prints a table, writes bench/results/retention.json
//   TALA_BENCH_SESSIONS=20000  a smaller store (for trying the script)
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";
import { startObjectBench } from "./lib/object-bench.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SESSIONS = Number(process.env.TALA_BENCH_SESSIONS || 100_000);
const MESSAGES_PER = 10;
const SEED_CHUNK = 10_000;
const OLD_SHARE = 0.9;
const NO_INDEX_BATCHES = Number(process.env.TALA_BENCH_NOINDEX_BATCHES || 2);
const DAY = 86_400_000;

const work = join(tmpdir(), "tala-bench");
const persist = join(work, "retention-do");
rmSync(persist, { recursive: true, force: true });
mkdirSync(persist, { recursive: true });
const mf = await startObjectBench({ entry: join(root, "bench/lib/retention-worker.ts"), binding: "RETENTION", className: "BenchRetention", persist });
await mf.ready;

const call = async (object, body) => {
  const res = await mf.dispatchFetch(`http://bench/?object=${object}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`bench worker: ${res.status} ${await res.text()}`);
  return res.json();
};
const timed = async (object, body) => {
  const started = performance.now();
  const result = await call(object, body);
  return { ms: performance.now() - started, result };
};
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const round = (ms, d = 2) => Math.round(ms * 10 ** d) / 10 ** d;
const summary = (xs) => ({ n: xs.length, p50: round(quantile(xs, 0.5)), p95: round(quantile(xs, 0.95)), max: round(Math.max(...xs)) });

// The workerd process Miniflare started (a child of this one).
const workerdPid = () => {
  const out = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
  const line = out.split("\n").find((l) => /workerd/.test(l));
  if (!line) throw new Error(`no workerd child of ${process.pid}:\n${out}`);
  return Number(line.trim().split(/\s+/)[0]);
};
const pid = workerdPid();
const status = () => {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return { rssMb: round(kb("VmRSS") / 1024, 1), peakMb: round(kb("VmHWM") / 1024, 1) };
};
/** Resets the process's peak resident set (VmHWM) to its current one. */
const resetPeak = () => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
};

// The batch's size and the batches per alarm run, as the contract sets them (read through the bundle).
const { retentionBatchSessions: BATCH, retentionBatchesPerRun: PER_RUN } = await call("empty", { op: "limits" });
const now = Date.now();
const cutoff = now - 30 * DAY;
const oldCount = Math.round(SESSIONS * OLD_SHARE);

/** Seeds `object` with SESSIONS conversations, the first OLD_SHARE of them older than the retention. */
async function seed(object) {
  const started = performance.now();
  const spans = [
    { from: 0, to: oldCount, startedAt: now - 400 * DAY, spreadMs: 360 * DAY },
    { from: oldCount, to: SESSIONS, startedAt: now - 20 * DAY, spreadMs: 10 * DAY },
  ];
  for (const { from: start, to, startedAt, spreadMs } of spans) {
    for (let from = start; from < to; from += SEED_CHUNK) {
      await call(object, { op: "seed", from, count: Math.min(SEED_CHUNK, to - from), messagesPer: MESSAGES_PER, leadEvery: 10, startedAt, spreadMs });
    }
  }
  await call(object, { op: "links", questions: 5000, sessions: SESSIONS });
  return round((performance.now() - started) / 1000, 1);
}

const loadBefore = loadavg().map((x) => round(x));
const result = { memory: {} };
try {
  // RPC overhead and an empty store's batch.
  for (let i = 0; i < 10; i++) await call("empty", { op: "noop" });
  const rpc = [];
  for (let i = 0; i < 50; i++) rpc.push((await timed("empty", { op: "noop" })).ms);
  const empty = [];
  for (let i = 0; i < 50; i++) empty.push((await timed("empty", { op: "batch", cutoff, limit: BATCH, leads: false })).ms);
  result.rpcMs = summary(rpc);
  result.emptyStoreBatchMs = summary(empty);
  console.log(`rpc ${JSON.stringify(result.rpcMs)}; empty-store batch ${JSON.stringify(result.emptyStoreBatchMs)}`);

  result.memory.beforeSeedMb = status().rssMb;
  result.seedSeconds = await seed("main");
  result.before = await call("main", { op: "stats" });
  result.plans = await call("main", { op: "plans", cutoff });
  console.log(`seeded ${JSON.stringify(result.before)} in ${result.seedSeconds} s`);
  console.log(result.plans);

  // The pass: runs of PER_RUN batches, each batch one timed RPC, until a batch finds fewer than BATCH.
  const peakReset = resetPeak();
  const beforePass = status();
  let sampledMax = beforePass.rssMb;
  const sampler = setInterval(() => {
    sampledMax = Math.max(sampledMax, status().rssMb);
  }, 25);
  const batches = [];
  const runs = [];
  const passStarted = performance.now();
  let deleted = { conversations: 0, messages: 0, leads: 0 };
  for (let more = true; more; ) {
    const runStarted = performance.now();
    for (let b = 0; b < PER_RUN; b++) {
      const { ms, result: r } = await timed("main", { op: "batch", cutoff, limit: BATCH, leads: false });
      batches.push(ms);
      deleted = { conversations: deleted.conversations + r.deletedConversations, messages: deleted.messages + r.deletedMessages, leads: deleted.leads + r.deletedLeads };
      more = r.selected === BATCH;
      if (!more) break;
    }
    runs.push(performance.now() - runStarted);
  }
  const passSeconds = round((performance.now() - passStarted) / 1000, 1);
  clearInterval(sampler);
  const afterPass = status();
  result.pass = { deleted, batchMs: summary(batches), runMs: summary(runs), runs: runs.length, totalSeconds: passSeconds };
  result.after = await call("main", { op: "stats" });
  result.memory = {
    ...result.memory,
    beforePassMb: beforePass.rssMb,
    afterPassMb: afterPass.rssMb,
    peakDuringPassMb: peakReset ? afterPass.peakMb : null,
    sampledMaxDuringPassMb: sampledMax,
    peakResetWorked: peakReset,
  };
  console.log(`pass: ${JSON.stringify(result.pass)}`);
  console.log(`memory: ${JSON.stringify(result.memory)}`);

  // Without the indexes, on the same 1,000,000 messages.
  await seed("noindex");
  await call("noindex", { op: "dropIndexes" });
  const plain = [];
  for (let b = 0; b < NO_INDEX_BATCHES; b++) plain.push((await timed("noindex", { op: "batch", cutoff, limit: BATCH, leads: false })).ms);
  result.noIndexBatchMs = summary(plain);
  result.noIndexPlans = await call("noindex", { op: "plans", cutoff });
  console.log(`without the indexes: ${JSON.stringify(result.noIndexBatchMs)}`);
} finally {
  await mf.dispose();
  rmSync(persist, { recursive: true, force: true });
}
const loadAfter = loadavg().map((x) => round(x));
console.table({
  "batch (indexed)": result.pass.batchMs,
  "batch (no index)": result.noIndexBatchMs,
  "batch (empty store)": result.emptyStoreBatchMs,
  rpc: result.rpcMs,
  [`run (${PER_RUN} batches)`]: result.pass.runMs,
});
writeFileSync(
  join(root, "bench/results/retention.json"),
  `${JSON.stringify(
    {
      bench: "retention",
      node: process.version,
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, memoryGb: round(totalmem() / 2 ** 30, 1), loadAverage: { before: loadBefore, after: loadAfter } },
      method: `one Durable Object under Miniflare (SQLite persisted to a temporary folder) seeded inside itself with ${SESSIONS} conversations × ${MESSAGES_PER} messages (${Math.round(OLD_SHARE * 100)}% older than a 30-day retention), a lead every 10 conversations, 5,000 Insights questions linking 5 conversations each, 2,000 kept webhook events; the retention pass's deletion (PrivacyStore.inactiveBefore + deleteConversations, leads kept) one batch of ${BATCH} conversations per RPC timed from Node, in runs of ${PER_RUN}; memory = the workerd process's resident set (/proc VmRSS; peak VmHWM reset after seeding, and sampled every 25 ms): the whole runtime, SQLite's page cache and resident file pages, not the object's heap alone`,
      goal: "bounded time per batch at 1,000,000 stored messages (the object free for visitors between batches), memory flat over the pass",
      ...result,
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote bench/results/retention.json (load ${loadBefore[0]} → ${loadAfter[0]})`);
