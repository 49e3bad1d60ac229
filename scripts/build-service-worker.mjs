#!/usr/bin/env node
// Generates dist/public/service-worker.js from scripts/service-worker/sw.ts, with a precache list
// and a version hashed from the built files (scripts/build.mjs runs it last). TALA_BUILD_ID, when
// set, changes the version too: a way to publish an update without other changes, and to test one.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { importTs } from "./run-ts.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { buildServiceWorker } = await importTs("scripts/service-worker/build.ts");
const result = await buildServiceWorker({ root, buildId: process.env.TALA_BUILD_ID });
console.log(`service worker: version ${result.version}, ${result.files} files precached (${Math.round(result.bytes / 1024)} KB)`);
