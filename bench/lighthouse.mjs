#!/usr/bin/env node
// Lighthouse (mobile profile, simulated throttling) against the local build, in Debian Chromium:
// performance, accessibility, best practices and SEO for /, /blog and one post. Needs a build
// (`npm run build`). Prints a table and writes bench/results/lighthouse.json.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pages = ["/", "/blog", "/blog/3"];
const chromePath = process.env.CHROME_PATH || "/usr/bin/chromium";

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function startTala() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "tala-lh-"));
  const child = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), TALA_STATE_DIR: join(dir, "state"), WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    stdio: "ignore",
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 360; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    stop() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // gone
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const tala = await startTala();
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const results = [];
try {
  for (const path of pages) {
    const runner = await lighthouse(`${tala.base}${path}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    const c = runner.lhr.categories;
    const score = (k) => Math.round((c[k]?.score ?? 0) * 100);
    results.push({
      path,
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      seo: score("seo"),
      lcpMs: Math.round(runner.lhr.audits["largest-contentful-paint"]?.numericValue ?? 0),
      cls: runner.lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0,
      failing: Object.values(runner.lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
        .map((a) => a.id),
    });
  }
} finally {
  await chrome.kill();
  tala.stop();
}

console.log("page        perf  a11y  best  seo   LCP ms  CLS");
for (const r of results) {
  console.log(
    `${r.path.padEnd(11)} ${String(r.performance).padStart(4)}  ${String(r.accessibility).padStart(4)}  ${String(r.bestPractices).padStart(4)}  ${String(r.seo).padStart(3)}  ${String(r.lcpMs).padStart(7)}  ${r.cls.toFixed(3)}`,
  );
  if (r.failing.length) console.log(`            failing audits: ${r.failing.join(", ")}`);
}
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(
  join(root, "bench/results/lighthouse.json"),
  JSON.stringify({ date: new Date().toISOString(), chromium: chromePath, profile: "mobile, simulated throttling", results }, null, 2) + "\n",
);
