#!/usr/bin/env node
// Where widget-core.js's bytes go: the core bundled as the build does (the contract inlined,
// Preact trimmed, the same property shortening), split at esbuild's per-module markers, each
// module's code whitespace-minified, and for each module its raw bytes, its gzip alone, and its
// marginal gzip: gzip of the whole minus gzip of the whole without it (what removing it would
// save; the marginals do not add up to the total, gzip shares text across modules). The
// stylesheet's share is measured the same way. Prints the table, largest marginal first;
// `--json` prints JSON. Writes nothing.
import { build, transform } from "esbuild";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { common, inlineContract, trimPreact } from "../widget-sdk/build.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const gzip = (s) => gzipSync(s, { level: 9 }).length;
const entry = process.argv.find((a) => a.startsWith("--entry="))?.slice(8) ?? "widget-sdk/src/core/index.tsx";

const result = await build({
  ...common,
  entryPoints: [join(root, entry)],
  format: "iife",
  minifySyntax: true,
  minifyIdentifiers: false,
  write: false,
  define: { __TALA_CHUNKS__: '"00000000"' },
  plugins: [inlineContract, trimPreact],
});
const text = result.outputFiles[0].text;
// esbuild writes "  // path/to/module.ts" before each module's code when whitespace is kept.
const parts = [];
const marker = /^ {2}\/\/ (\S+)$/gm;
let last = { name: "(wrapper)", start: 0 };
for (let m; (m = marker.exec(text)); ) {
  parts.push({ name: last.name, code: text.slice(last.start, m.index) });
  last = { name: m[1], start: m.index + m[0].length };
}
parts.push({ name: last.name, code: text.slice(last.start) });
const mini = [];
for (const p of parts) {
  let code = p.code;
  try {
    code = (await transform(p.code, { minifyWhitespace: true, minifyIdentifiers: false, loader: "js" })).code;
  } catch {
    // a fragment that is not a whole statement list (the IIFE's own lines): kept as written
  }
  mini.push({ name: relative(root, join(root, p.name)), code });
}
const whole = mini.map((p) => p.code).join("");
const total = gzip(whole);
const rows = mini
  .map((p, i) => ({
    module: p.name,
    rawBytes: p.code.length,
    gzipAlone: gzip(p.code),
    marginalGzip: total - gzip(mini.filter((_, j) => j !== i).map((q) => q.code).join("")),
  }))
  .sort((a, b) => b.marginalGzip - a.marginalGzip);
if (process.argv.includes("--json")) console.log(JSON.stringify({ entry, totalGzip: total, rows }, null, 2));
else {
  console.log(`${entry}: ${whole.length} B, ${total} B gzip (identifiers unshortened: the build's figure is lower)`);
  for (const r of rows) console.log(`${String(r.marginalGzip).padStart(6)}  ${String(r.gzipAlone).padStart(6)}  ${String(r.rawBytes).padStart(7)}  ${r.module}`);
  console.log("marginal gzip, gzip alone, raw bytes, module");
}
