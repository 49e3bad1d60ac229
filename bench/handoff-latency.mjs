#!/usr/bin/env node
// Handoff latency: the time from a person's send (the owner's POST
// /api/public-assistants/{id}/chats/{sessionId}/messages) to the visitor's `new-message` frame
// (role "agent") in the widget, p50/p99, with 1 and 50 conversations taken over at once, over the
// visitor's socket (/parties/widget/{sessionId}) and over its event stream (GET
// /api/widget/sessions/{id}/events, the fallback of a network that blocks WebSockets), beside the
// trivial-route floor (GET /api/health) at the same concurrency in the same run. Also each send's
// own answer time (the owner's 201), and an AI turn of a conversation never taken over (the SSE
// turn, sent → the reply's end) in the same run, for reference.
//
// Per transport and level: `level` conversations of one assistant taken over (POST …/takeover),
// each visitor connected, then ROUNDS rounds in which every conversation's person sends one message
// at once (the level's concurrency); a message is matched to its frame by a unique marker. The
// floor runs `level` GET /api/health at once, ROUNDS times. Every visitor is its own network.
//
// Runs Tala from a snapshot of the sources (bench/lib/harness.mjs); needs npm run build.
// TALA_BENCH_LEVELS=1 runs a subset (nothing written). Writes bench/results/handoff-latency.json.
// Never a timed assertion in a test.
/* global WebSocket, performance, crypto, AbortController, TextDecoder -- Node 20 globals (WebSocket with --experimental-websocket). */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { seedUsers, snapshot, startMock, startTala, stats } from "./lib/harness.mjs";

const LEVELS = (process.env.TALA_BENCH_LEVELS?.split(",").map(Number) ?? [1, 50]).filter((n) => n > 0);
const ROUNDS = Number(process.env.TALA_BENCH_ROUNDS || 20);
const TRANSPORTS = ["socket", "events"];
const FRAME_TIMEOUT_MS = 15_000;
const offline = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

if (typeof globalThis.WebSocket === "undefined") {
  const child = spawn(process.execPath, ["--experimental-websocket", "--no-warnings", fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  child.on("exit", (code) => process.exit(code ?? 1));
} else {
  await main();
}

async function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  if (!existsSync(join(root, "dist/public/index.html"))) {
    console.error("dist/public is missing: run `npm run build` first");
    process.exit(1);
  }
  const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
  const dir = mkdtempSync(join(tmpdir(), "tala-handoff-bench-"));
  const stateDir = join(dir, "state");
  let tala;
  let mock;
  const results = [];
  let aiTurn;
  try {
    const app = snapshot(root, join(dir, "app"));
    mock = await startMock(root);
    const [owner] = seedUsers(app, stateDir, 1, offline);
    tala = await startTala(app, stateDir, { LLM_BASE_URL: mock.url, LLM_MODEL: "mock-small" }, offline);
    const base = tala.baseURL;
    console.log(`Tala on ${base}; ${ROUNDS} rounds per transport and level`);
    let network = 0;
    const nextIp = () => `10.${100 + Math.floor(network / 250)}.${network++ % 250}.7`;

    // Warm-up (not recorded): the isolate, the objects' code, one takeover and one send each way.
    await measure(base, owner.token, "socket", 1, 2, nextIp);
    await measure(base, owner.token, "events", 1, 2, nextIp);

    for (const level of LEVELS) {
      for (const transport of TRANSPORTS) {
        const run = await measure(base, owner.token, transport, level, ROUNDS, nextIp);
        const floor = await healthFloor(base, level, ROUNDS);
        results.push({ transport, conversations: level, ...run, floorMs: floor });
        console.log(
          `${transport.padEnd(7)} ×${String(level).padEnd(3)} send → visitor frame p50 ${run.deliveredMs.p50} p99 ${run.deliveredMs.p99} ms (${run.samples} sends, ${run.missed} missed); ` +
            `send answered p50 ${run.sendMs.p50} p99 ${run.sendMs.p99} ms; floor GET /api/health p50 ${floor.p50} p99 ${floor.p99} ms`,
        );
      }
    }
    aiTurn = await untakenTurns(base, owner.token, 20, nextIp);
    console.log(`AI turn of a conversation never taken over (SSE, sent → end): p50 ${aiTurn.p50} p99 ${aiTurn.p99} ms`);
  } finally {
    await tala?.stop();
    mock?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const loadAfter = loadavg().map((x) => Math.round(x * 100) / 100);
  if (process.env.TALA_BENCH_LEVELS || process.env.TALA_BENCH_ROUNDS) {
    console.log("\na subset: bench/results/handoff-latency.json left as it was");
    return;
  }
  const file = join(root, "bench/results/handoff-latency.json");
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        bench: "handoff-latency",
        node: process.version,
        date: new Date().toISOString(),
        method: `per transport and level, ${ROUNDS} rounds in which each of the level's taken-over conversations gets one person's message at once: deliveredMs = the owner's POST sent → the visitor's new-message (role agent) received, over the widget socket or the visitor's event stream; sendMs = the POST's own 201; floorMs = GET /api/health at the same concurrency in the same run; aiTurnMs = an SSE turn of a conversation never taken over, sent → end (mock model)`,
        loadAverage: { before: loadBefore, after: loadAfter },
        results,
        aiTurnMs: aiTurn,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwrote bench/results/handoff-latency.json (load ${loadBefore[0]} → ${loadAfter[0]})`);
}

/** `level` conversations taken over and connected over `transport`; `rounds` rounds of one person's message each, at once. */
async function measure(base, token, transport, level, rounds, nextIp) {
  const a = await assistant(base, token, `Handoff ${transport} ×${level}`);
  const visitors = [];
  for (let i = 0; i < level; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, level - i) }, async () => {
        const ip = nextIp();
        const { sessionId } = await api(base, "/api/widget/sessions", { key: a.key, ip, json: { referrer: "https://shop.example/", locale: "en-US" } });
        await api(base, `/api/public-assistants/${a.id}/chats/${sessionId}/takeover`, { token, json: {} });
        const visitor = transport === "socket" ? await openSocket(base, sessionId, a.key, ip) : await openEvents(base, sessionId, a.key, ip);
        return { sessionId, ...visitor };
      }),
    );
    visitors.push(...batch);
  }
  const delivered = [];
  const sent = [];
  let missed = 0;
  for (let r = 0; r < rounds; r++) {
    await Promise.all(
      visitors.map(async (v) => {
        const marker = `bench-${crypto.randomUUID()}`;
        const arrived = v.waitFor(marker, FRAME_TIMEOUT_MS);
        const t = performance.now();
        await api(base, `/api/public-assistants/${a.id}/chats/${v.sessionId}/messages`, { token, json: { content: `Hello from a person ${marker}` } });
        sent.push(performance.now() - t);
        const at = await arrived;
        if (at === null) missed++;
        else delivered.push(at - t);
      }),
    );
  }
  for (const v of visitors) v.close();
  return { samples: delivered.length + missed, missed, deliveredMs: stats(delivered), sendMs: stats(sent) };
}

/** Waiters on the visitor's frames: a person's message whose text holds the marker. */
function frameWaiters() {
  const waiting = new Map();
  return {
    take(frame) {
      if (frame?.event !== "new-message" || frame.data?.message?.role !== "agent") return;
      const text = frame.data.message.content?.data ?? "";
      for (const [marker, resolve] of waiting) {
        if (!text.includes(marker)) continue;
        waiting.delete(marker);
        resolve(performance.now());
      }
    },
    waitFor(marker, timeoutMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(marker);
          resolve(null);
        }, timeoutMs);
        waiting.set(marker, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
  };
}

function openSocket(base, sessionId, key, ip) {
  const waiters = frameWaiters();
  const url = `${base.replace(/^http/, "ws")}/parties/widget/${encodeURIComponent(sessionId)}?key=${encodeURIComponent(key)}`;
  return new Promise((resolve, reject) => {
    // undici's WebSocket takes headers (not in the standard): each visitor is its own network.
    const ws = new WebSocket(url, { headers: { "cf-connecting-ip": ip } });
    const timer = setTimeout(() => reject(new Error("socket did not open within 30 s")), 30_000);
    ws.addEventListener("message", (event) => {
      try {
        waiters.take(JSON.parse(String(event.data)));
      } catch {
        // not a frame of ours
      }
    });
    ws.addEventListener("open", () => {
      clearTimeout(timer);
      resolve({ waitFor: waiters.waitFor, close: () => ws.close() });
    });
    ws.addEventListener("error", () => reject(new Error("socket failed")));
  });
}

async function openEvents(base, sessionId, key, ip) {
  const waiters = frameWaiters();
  const controller = new AbortController();
  const res = await fetch(`${base}/api/widget/sessions/${encodeURIComponent(sessionId)}/events`, {
    headers: { "x-assistant-key": key, "cf-connecting-ip": ip, accept: "text/event-stream" },
    signal: controller.signal,
  });
  if (!res.ok) throw new Error(`events: ${res.status} ${(await res.text()).slice(0, 200)}`);
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = block.match(/^event: (.*)$/m)?.[1];
          const data = block.match(/^data: (.*)$/m)?.[1];
          if (event && data) waiters.take({ event, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted at the end of the measurement
    }
  })();
  return { waitFor: waiters.waitFor, close: () => controller.abort() };
}

/** `level` GET /api/health at once, `rounds` times. */
async function healthFloor(base, level, rounds) {
  const ms = [];
  for (let r = 0; r < rounds; r++) {
    await Promise.all(
      Array.from({ length: level }, async () => {
        const t = performance.now();
        const res = await fetch(`${base}/api/health`);
        await res.text();
        if (res.ok) ms.push(performance.now() - t);
      }),
    );
  }
  return stats(ms);
}

/** SSE turns of conversations never taken over (one message each, one after the other). */
async function untakenTurns(base, token, turns, nextIp) {
  const a = await assistant(base, token, "Never taken over");
  const ms = [];
  for (let i = 0; i < turns; i++) {
    const ip = nextIp();
    const { sessionId } = await api(base, "/api/widget/sessions", { key: a.key, ip, json: { referrer: "https://shop.example/", locale: "en-US" } });
    const t = performance.now();
    const res = await fetch(`${base}/api/widget/sessions/${sessionId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-assistant-key": a.key, "cf-connecting-ip": ip },
      body: JSON.stringify({ content: "When are you open? [[ttft:0]] [[tokens:5]] [[delay:0]]", clientMessageId: crypto.randomUUID(), files: [] }),
    });
    const text = await res.text();
    if (res.ok && text.includes("event: remaining-messages")) ms.push(performance.now() - t);
  }
  return stats(ms);
}

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

/** An assistant with room for the bench's visitors; its publishable key. */
async function assistant(base, token, name) {
  const { assistant: a } = await api(base, "/api/public-assistants", { token, json: { name, config: { maxMessagesPerSession: 50, dailyLimit: 1000 } } });
  const { apiKey } = await api(base, `/api/public-assistants/${a._id}/raw-api-key`, { token });
  return { id: a._id, key: apiKey };
}
