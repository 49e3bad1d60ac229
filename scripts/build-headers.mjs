#!/usr/bin/env node
// Writes dist/public/_headers: the security headers Cloudflare's static assets (and wrangler dev)
// add to every static file. The policies are worker/http/security-headers.ts, the same the Worker
// sends; the HTML pages' CSP admits the hashes of the inline scripts the build produced.
// HSTS is written only when PUBLIC_URL is https (a deployed site); never on http://127.0.0.1.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { importTs } from "./run-ts.mjs";
import { publicUrl } from "./public-url.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist/public");
const { buildHeadersFile } = await importTs("scripts/headers/build.ts");

const htmlFiles = readdirSync(out, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".html"));
const text = await buildHeadersFile({
  html: htmlFiles.map((f) => readFileSync(join(out, f), "utf8")),
  https: publicUrl().startsWith("https://"),
});
writeFileSync(join(out, "_headers"), text);
console.log(`headers: ${htmlFiles.length} pages hashed`);
