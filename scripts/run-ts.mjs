// Runs a TypeScript entry from a plain Node script (Node 20 cannot strip types): esbuild bundles
// it, with the contract and every relative import, into node_modules/.cache/tala/, and we import that.
// npm packages stay external, so they resolve from the repo's node_modules as usual.
import { build } from "esbuild";
import { mkdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Bundles `entry` (a path relative to the repo root) and returns its module namespace. */
export async function importTs(entry) {
  const outdir = join(root, "node_modules/.cache/tala");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, `${basename(entry).replace(/\.ts$/, "")}-${process.pid}-${Date.now()}.mjs`);
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "inline",
    logLevel: "warning",
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    // Loaded modules stay in memory; the file is only a vehicle (unique per run, so parallel builds never clash).
    rmSync(outfile, { force: true });
  }
}
