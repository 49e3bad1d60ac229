// A Durable Object of the benches under Miniflare: `entry` (a bench/lib/*-worker.ts) bundled for
// workerd and served with one SQLite-backed object class bound as `binding`; its storage kept in
// `persist` when given (a folder), else in memory.
import { build } from "esbuild";
import { mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Miniflare } from "miniflare";

export async function startObjectBench({ entry, binding, className, persist }) {
  const work = join(tmpdir(), "tala-bench");
  mkdirSync(work, { recursive: true });
  const bundle = join(work, basename(entry).replace(/\.ts$/, ".mjs"));
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:*", "node:*"],
    outfile: bundle,
    logLevel: "error",
  });
  return new Miniflare({
    modules: [{ type: "ESModule", path: "worker.mjs", contents: readFileSync(bundle, "utf8") }],
    compatibilityDate: "2026-04-26",
    compatibilityFlags: ["nodejs_compat"],
    durableObjects: { [binding]: { className, useSQLite: true } },
    ...(persist ? { durableObjectsPersist: persist } : {}),
  });
}
