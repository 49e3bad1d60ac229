#!/usr/bin/env node
// What recording a webhook event adds to a visitor turn, measured where it happens: the hub's
// recorder (worker/assistant/hub-webhooks.ts `recordAnswer`, as finishTurn calls it, arming the
// outbox alarm through the named-alarm scheduler) in a Durable Object under Miniflare
// (bench/lib/webhook-record-worker.ts). Each sample is one RPC saving N answers the way finishTurn
// saves them, with and without recording after each, interleaved; Node's clock times the RPCs, and
// the difference per answer is the recording's cost: with 0 endpoints (the subscription lookup in
// memory only), 1 and 10 endpoints subscribed to message.answered. bench/webhooks.mjs measures the
// same through the whole turn under `npm start`, where the Worker's whole-millisecond clock and the
// deliveries running beside the turns hide a cost this small.
//
//   node bench/webhook-record.mjs   prints a table, writes bench/results/webhook-record.json
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { startObjectBench } from "./lib/object-bench.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const N = Number(process.env.TALA_BENCH_ANSWERS || 500);
const SAMPLES = Number(process.env.TALA_BENCH_SAMPLES || 15);
const CASES = [0, 1, 10];

const mf = await startObjectBench({ entry: join(root, "bench/lib/webhook-record-worker.ts"), binding: "RECORDER", className: "BenchRecorder" });
const call = async (object, body) => {
  const res = await mf.dispatchFetch(`http://bench/?object=${object}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`bench worker: ${res.status} ${await res.text()}`);
  return res.json();
};
const timed = async (object, record) => {
  const started = performance.now();
  await call(object, { op: "answers", n: N, record });
  return performance.now() - started;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const us = (ms) => Math.round(ms * 1000 * 10) / 10;

const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
const rows = [];
try {
  for (const endpoints of CASES) {
    const object = `case-${endpoints}`;
    await call(object, { op: "endpoints", count: endpoints });
    await timed(object, true); // warm-up
    await timed(object, false);
    const added = [];
    const base = [];
    for (let s = 0; s < SAMPLES; s++) {
      // Interleaved, the order alternating, so drift and the machine's load fall on both sides.
      const [withMs, withoutMs] = s % 2 ? [await timed(object, true), await timed(object, false)] : await (async () => { const b = await timed(object, false); return [await timed(object, true), b]; })();
      added.push((withMs - withoutMs) / N);
      base.push(withoutMs / N);
    }
    const row = { endpoints, addedPerAnswerUsP50: us(median(added)), addedPerAnswerUsP90: us(quantile(added, 0.9)), saveWithoutRecordingUsP50: us(median(base)) };
    rows.push(row);
    console.log(`${endpoints} endpoint(s): recording adds ${row.addedPerAnswerUsP50} µs per answer (p90 of samples ${row.addedPerAnswerUsP90}); the answer's own save ${row.saveWithoutRecordingUsP50} µs`);
  }
} finally {
  await mf.dispose();
}
const loadAfter = loadavg().map((x) => Math.round(x * 100) / 100);
console.table(rows);
writeFileSync(
  join(root, "bench/results/webhook-record.json"),
  `${JSON.stringify(
    {
      bench: "webhook-record",
      node: process.version,
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, loadAverage: { before: loadBefore, after: loadAfter } },
      method: `per case, ${SAMPLES} interleaved pairs of RPCs to a Durable Object under Miniflare, each saving ${N} answers (question + reply, as finishTurn) with and without recordAnswer after each; Node's clock; (with − without) / ${N} per pair; median and p90 of the pairs; the outbox emptied before each RPC as the alarm keeps it`,
      goal: "≤ 500 µs p50 added to a turn",
      cases: rows,
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote bench/results/webhook-record.json (load ${loadBefore[0]} → ${loadAfter[0]})`);
