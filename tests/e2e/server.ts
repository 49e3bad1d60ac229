import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export interface TalaServer {
  baseURL: string;
  stateDir: string;
  stop(): Promise<void>;
  logs(): string;
}

/**
 * Starts Tala exactly as `npm start` does (already built: --no-build) on a free port with its own
 * state folder, and waits for /api/health. `vars` become Worker variables (TALA_EXTRA_VARS).
 */
export async function startTala(vars: Record<string, string> = {}, env: Record<string, string> = {}): Promise<TalaServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "tala-e2e-"));
  const stateDir = join(dir, "state");
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], {
    cwd: process.cwd(),
    env: { ...process.env, ...env, PORT: String(port), TALA_STATE_DIR: stateDir, TALA_EXTRA_VARS: JSON.stringify(vars) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stopping = false;
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  // A server that dies mid-run fails every later test with ECONNREFUSED: say why, once, where CI shows it.
  child.once("exit", (code, signal) => {
    if (stopping) return;
    process.stderr.write(`\nTala's server on port ${port} exited (code ${code}, signal ${signal}). Its last output:\n${output.slice(-8000)}\n`);
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Tala exited before it was ready:\n${output}`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Tala did not become ready on ${baseURL}:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseURL,
    stateDir,
    logs: () => output,
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once("exit", r));
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // already gone
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
