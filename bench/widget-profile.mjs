#!/usr/bin/env node
// Where widget-core.js's bytes go: the core bundled as the build does (the contract inlined,
// Preact trimmed, the same property shortening), split at esbuild's per-module markers, each
// module's code whitespace-minified, and for each module its raw bytes, its gzip alone, and its
// marginal gzip: gzip of the whole minus gzip of the whole without it (what removing it would
// save; the marginals do not add up to the total, gzip shares text across modules). The
// stylesheet's share is measured the same way. Prints the table, largest marginal first;
// `--json` prints JSON. `--functions[=N]` then prints the N (default 40) largest top-level
// declarations (a function, a constant, each method of a class: `Controller.send`) by the same
// marginal gzip, found with acorn in the whitespace-minified whole; `--without=a,b,…` prints what
// those declarations together would save, and their own gzip as a file of their own (what a
// chunk holding them would weigh, before its glue). Writes nothing.
import { Parser } from "acorn";
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
/** Each top-level declaration of the bundle's body (a class: each of its members), with its marginal gzip. */
function declarations(limit, only) {
  const ast = Parser.parse(whole, { ecmaVersion: "latest", sourceType: "script" });
  let body = ast.body;
  // The IIFE's arrow function: its statements are the modules' declarations.
  const call = body.find((n) => n.expression?.type === "CallExpression")?.expression.callee;
  if (call?.body?.type === "BlockStatement") body = call.body.body;
  const starts = [];
  let at = 0;
  for (const p of mini) {
    starts.push([at, p.name]);
    at += p.code.length;
  }
  const moduleAt = (pos) => starts.filter(([s]) => s <= pos).at(-1)?.[1] ?? "?";
  const units = [];
  const nameOf = (n) => n.id?.name ?? n.declarations?.map((d) => d.id.name ?? "{…}").join(",") ?? n.expression?.type ?? n.type;
  const members = (name, cls) => {
    for (const m of cls.body.body) units.push({ name: `${name}.${m.key?.name ?? m.key?.value ?? "#"}`, start: m.start, end: m.end });
  };
  for (const n of body) {
    if (n.type === "ClassDeclaration") members(n.id.name, n);
    // esbuild joins neighbouring declarations into one `var a = …, b = class {…}`: each declarator, each class member.
    else if (n.type === "VariableDeclaration" && n.declarations.length > 1) {
      for (const d of n.declarations) {
        if (d.init?.type === "ClassExpression") members(d.id.name, d.init);
        else units.push({ name: d.id.name ?? "{…}", start: d.start, end: d.end });
      }
    } else if (n.type === "VariableDeclaration" && n.declarations[0].init?.type === "ClassExpression") members(n.declarations[0].id.name, n.declarations[0].init);
    else units.push({ name: nameOf(n), start: n.start, end: n.end });
  }
  if (only) {
    const picked = units.filter((u) => only.includes(u.name)).sort((a, b) => b.start - a.start);
    let rest = whole;
    for (const u of picked) rest = rest.slice(0, u.start) + rest.slice(u.end);
    const own = picked.map((u) => whole.slice(u.start, u.end)).join(";");
    return { names: picked.map((u) => u.name), missing: only.filter((n) => !units.some((u) => u.name === n)), saves: total - gzip(rest), alone: gzip(own) };
  }
  return units
    .map((u) => ({ name: u.name, module: moduleAt(u.start), rawBytes: u.end - u.start, marginalGzip: total - gzip(whole.slice(0, u.start) + whole.slice(u.end)) }))
    .sort((a, b) => b.marginalGzip - a.marginalGzip)
    .slice(0, limit);
}
const fnArg = process.argv.find((a) => a.startsWith("--functions"));
const fns = fnArg ? declarations(Number(fnArg.split("=")[1]) || 40) : undefined;
const withoutArg = process.argv.find((a) => a.startsWith("--without="));
if (withoutArg) {
  const r = declarations(0, withoutArg.slice(10).split(","));
  console.log(`${entry}: ${total} B gzip; without ${r.names.length} declarations: saves ${r.saves} B; they alone: ${r.alone} B gzip${r.missing.length ? `; not found: ${r.missing.join(", ")}` : ""}`);
  process.exit(0);
}
if (process.argv.includes("--json")) console.log(JSON.stringify({ entry, totalGzip: total, rows, ...(fns ? { declarations: fns } : {}) }, null, 2));
else {
  console.log(`${entry}: ${whole.length} B, ${total} B gzip (identifiers unshortened: the build's figure is lower)`);
  for (const r of rows) console.log(`${String(r.marginalGzip).padStart(6)}  ${String(r.gzipAlone).padStart(6)}  ${String(r.rawBytes).padStart(7)}  ${r.module}`);
  console.log("marginal gzip, gzip alone, raw bytes, module");
  if (fns) {
    for (const f of fns) console.log(`${String(f.marginalGzip).padStart(6)}  ${String(f.rawBytes).padStart(7)}  ${f.name}  (${f.module})`);
    console.log("marginal gzip, raw bytes, declaration (module)");
  }
}
