// Profiling helpers for the benches (TALA_PROFILE=<dir>): a CPU profile of the worker's isolate
// through wrangler dev's inspector (Chrome DevTools protocol, Profiler.start/stop; the Worker and
// its Durable Objects share that isolate locally), summarised by function, and the CPU time each
// local process spent (workerd, wrangler's Node, the mock model, the bench client) from /proc.
/* global WebSocket -- Node 20 global with --experimental-websocket */
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

/** Connects to the worker's inspector on `port` (wrangler dev --inspector-port). */
export async function connectInspector(port) {
  const deadline = Date.now() + 30_000;
  let targets = [];
  while (Date.now() < deadline) {
    try {
      targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
      if (targets.length) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!targets.length) throw new Error(`no inspector target on port ${port}`);
  // miniflare's proxy wants an Origin (or no user-agent) from a non-browser client.
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl, { headers: { origin: "http://localhost" } });
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error("inspector socket failed")), { once: true });
  });
  let nextId = 1;
  const pending = new Map();
  ws.addEventListener("message", (event) => {
    const msg = JSON.parse(String(event.data));
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(`${msg.error.message}`));
      else resolve(msg.result);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 200 });
  return {
    start: () => send("Profiler.start"),
    stop: async () => (await send("Profiler.stop")).profile,
    close: () => ws.close(),
  };
}

/**
 * A profile's time by function (self and total, ms) and by kind: (idle), (garbage collector),
 * (program) (the runtime outside JavaScript: workerd's own C++ as the isolate sees it), and JS.
 */
export function summariseProfile(profile, top = 25) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = deltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
  }
  const label = (n) => {
    const f = n.callFrame;
    const file = f.url ? f.url.split("/").slice(-1)[0] : "";
    return `${f.functionName || "(anonymous)"}${file ? ` ${file}:${f.lineNumber + 1}` : ""}`;
  };
  const self = new Map();
  const total = new Map();
  const kinds = { idle: 0, gc: 0, program: 0, js: 0 };
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    const name = n.callFrame.functionName;
    if (name === "(idle)") kinds.idle += us;
    else if (name === "(garbage collector)") kinds.gc += us;
    else if (name === "(program)" || name === "(root)") kinds.program += us;
    else kinds.js += us;
    const l = label(n);
    self.set(l, (self.get(l) ?? 0) + us);
    // Total: every distinct function on the stack gets the sample once.
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const cl = label(byId.get(cur));
      if (seen.has(cl)) continue;
      seen.add(cl);
      total.set(cl, (total.get(cl) ?? 0) + us);
    }
  }
  const ms = (us) => Math.round(us / 100) / 10;
  const rank = (m) =>
    [...m.entries()]
      .filter(([l]) => !/^\((idle|root|program|garbage collector)\)/.test(l))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, us]) => ({ fn, ms: ms(us) }));
  return {
    wallMs: ms(profile.endTime - profile.startTime),
    kindsMs: Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, ms(v)])),
    self: rank(self),
    total: rank(total),
  };
}

/** Pids of `root` and all its descendants, with their command lines. */
function tree(root) {
  const all = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      all.push({ pid: Number(entry), ppid, cmd });
    } catch {
      // gone
    }
  }
  const out = [];
  const walk = (pid) => {
    for (const p of all.filter((x) => x.ppid === pid)) {
      out.push(p);
      walk(p.pid);
    }
  };
  const me = all.find((x) => x.pid === root);
  if (me) out.push(me);
  walk(root);
  return out;
}

const ticks = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]); // utime + stime
  } catch {
    return 0;
  }
};

/** utime + stime per thread name of `pid`. */
function threadTicks(pid) {
  const out = new Map();
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim().replace(/[0-9]+$/, "#");
      out.set(comm, (out.get(comm) ?? 0) + ticks(`${pid}/task/${tid}`));
    } catch {
      // gone
    }
  }
  return out;
}

const HZ = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU seconds per local process between `begin()` and `end()`: the workerd runtime, wrangler's
 * Node, the mock model and this bench client (by command line under `roots`).
 */
export function processCpu(roots) {
  const name = (cmd) =>
    /workerd/.test(cmd) ? (/--inspector-addr/.test(cmd) ? "workerd (the worker)" : "workerd (wrangler's proxy)") : /mock-model/.test(cmd) ? "mock model" : /wrangler/.test(cmd) ? "wrangler (node)" : /esbuild/.test(cmd) ? "esbuild" : /start\.mjs/.test(cmd) ? "npm start (node)" : cmd.slice(0, 40);
  let before = null;
  const snapshot = () => {
    const out = new Map([["bench client", ticks(process.pid)]]);
    for (const root of roots) {
      for (const p of tree(root)) {
        out.set(name(p.cmd), (out.get(name(p.cmd)) ?? 0) + ticks(p.pid));
        // Threads of the local runtime's processes, by name (Node's main thread is "node").
        if (/workerd|wrangler/.test(p.cmd) && !/esbuild/.test(p.cmd)) {
          for (const [thread, t] of threadTicks(p.pid)) out.set(`${name(p.cmd)} / ${thread}`, (out.get(`${name(p.cmd)} / ${thread}`) ?? 0) + t);
        }
      }
    }
    return out;
  };
  return {
    begin: () => {
      before = { at: Date.now(), cpu: snapshot() };
    },
    end: () => {
      const after = snapshot();
      const wallS = (Date.now() - before.at) / 1000;
      const cpuS = {};
      for (const [k, v] of after) {
        const d = Math.round(((v - (before.cpu.get(k) ?? 0)) / HZ) * 100) / 100;
        if (d > 0 || !k.includes(" / ")) cpuS[k] = d;
      }
      return { wallS: Math.round(wallS * 100) / 100, cpuS };
    },
  };
}

/**
 * Waits until the processes under `roots` are quiet: two 250 ms windows in a row with at most
 * 8 % of a core busy between them (background work of an earlier round, e.g. chat titles written
 * after the replies, is not charged to the next). Gives up after `maxMs`; resolves with the ms waited.
 */
export async function untilQuiet(roots, maxMs = 15_000) {
  const started = Date.now();
  const total = () => roots.flatMap((root) => tree(root)).reduce((sum, p) => sum + ticks(p.pid), 0);
  let quiet = 0;
  let last = total();
  while (Date.now() - started < maxMs && quiet < 2) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = total();
    quiet = now - last <= Math.ceil(HZ * 0.25 * 0.08) ? quiet + 1 : 0;
    last = now;
  }
  return Date.now() - started;
}
