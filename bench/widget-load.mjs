#!/usr/bin/env node
// What the widget costs a host page at load, measured in Debian Chromium: long tasks (> 50 ms),
// cumulative layout shift, and when the core arrives, for the same host page with and without the
// snippet. Starts Tala (`scripts/start.mjs --no-build`, a free port, a fresh state folder), creates
// an owner and an assistant through the API, serves the host page from another origin, loads it
// 5 times each way (CPU throttled 4x, like a mid-range phone) and then opens the panel once.
// Prints a table and writes bench/results/widget-load.json. Needs a build (`npm run build`).
/* global window, PerformanceObserver, performance -- used inside page.evaluate / addInitScript, which run in the browser. */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = 5;
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const port = await freePort();
const dir = mkdtempSync(join(tmpdir(), "tala-wl-"));
const tala = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], {
  cwd: root,
  env: { ...process.env, PORT: String(port), TALA_STATE_DIR: join(dir, "state"), WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  stdio: "ignore",
  detached: true,
});
const base = `http://127.0.0.1:${port}`;
let host;
let browser;
try {
  for (let i = 0; i < 360; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const post = (path, body, token) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Token ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const { token } = await post("/api/auth/register", { email: `bench-${Date.now()}@example.test`, password: "bench password 1", firstName: "Bench" });
  const { assistant } = await post("/api/public-assistants", { name: "Bench" }, token);
  const { apiKey } = await fetch(`${base}/api/public-assistants/${assistant._id}/raw-api-key`, { headers: { authorization: `Token ${token}` } }).then((r) => r.json());

  const hostPort = await freePort();
  host = createHttpServer((req, res) => {
    const withWidget = req.url?.includes("widget=1");
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host</title></head>
<body><h1>A host page</h1>${"<p>Some article text on the host page, long enough to lay out a few lines.</p>".repeat(30)}
${withWidget ? `<script src="${base}/widget.js" data-assistant-key="${apiKey}" data-host="${base}" async></script>` : ""}</body></html>`);
  });
  await new Promise((r) => host.listen(hostPort, "127.0.0.1", r));
  const hostUrl = (w) => `http://127.0.0.1:${hostPort}/?widget=${w ? 1 : 0}`;

  browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });

  async function measure(withWidget) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.addInitScript(() => {
      window.__perf = { longTasks: [], cls: 0 };
      new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__perf.longTasks.push(Math.round(e.duration)))).observe({ type: "longtask", buffered: true });
      new PerformanceObserver((l) => l.getEntries().forEach((e) => (window.__perf.cls += e.hadRecentInput ? 0 : e.value))).observe({ type: "layout-shift", buffered: true });
    });
    const started = Date.now();
    await page.goto(hostUrl(withWidget), { waitUntil: "load" });
    let coreMs = null;
    if (withWidget) {
      await page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => /\/widget-core\.js(\?|$)/.test(e.name)), null, { timeout: 20_000 });
      coreMs = Math.round(await page.evaluate(() => performance.getEntriesByType("resource").find((e) => /\/widget-core\.js(\?|$)/.test(e.name)).responseEnd));
    }
    await page.waitForTimeout(1500);
    const perf = await page.evaluate(() => window.__perf);
    await context.close();
    return { ...perf, coreLoadedAtMs: coreMs, wallMs: Date.now() - started };
  }

  const results = { without: [], with: [] };
  for (let i = 0; i < RUNS; i++) {
    results.without.push(await measure(false));
    results.with.push(await measure(true));
  }
  const summary = (runs) => ({
    longTasksOver50ms: runs.reduce((n, r) => n + r.longTasks.filter((d) => d > 50).length, 0),
    longestTaskMs: Math.max(0, ...runs.flatMap((r) => r.longTasks)),
    maxCls: Math.max(...runs.map((r) => r.cls)),
    coreLoadedAtMs: runs[0].coreLoadedAtMs === null ? null : Math.round(runs.reduce((s, r) => s + r.coreLoadedAtMs, 0) / runs.length),
  });
  const out = { date: new Date().toISOString(), runs: RUNS, cpuThrottling: 4, without: summary(results.without), with: summary(results.with), raw: results };
  console.log("host page        long tasks >50ms  longest ms  max CLS  core loaded at");
  for (const [name, s] of [["without widget", out.without], ["with widget", out.with]]) {
    console.log(`${name.padEnd(16)} ${String(s.longTasksOver50ms).padStart(16)}  ${String(s.longestTaskMs).padStart(10)}  ${s.maxCls.toFixed(3).padStart(7)}  ${s.coreLoadedAtMs === null ? "-" : `${s.coreLoadedAtMs} ms`}`);
  }
  mkdirSync(join(root, "bench/results"), { recursive: true });
  writeFileSync(join(root, "bench/results/widget-load.json"), JSON.stringify(out, null, 2) + "\n");
} finally {
  await browser?.close();
  host?.close();
  try {
    process.kill(-tala.pid, "SIGTERM");
  } catch {
    // gone
  }
  rmSync(dir, { recursive: true, force: true });
}
