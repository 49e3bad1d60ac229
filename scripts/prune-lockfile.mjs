#!/usr/bin/env node
// The npm registry this project is built against serves only some platforms' optional binaries
// (e.g. @tailwindcss/oxide-darwin-arm64 is absent), so `npm install` writes a lockfile whose
// optionalDependencies name packages it has no entry for, and `npm ci` then refuses it as "out of
// sync". This drops those dangling optional names (never a real dependency) so `npm ci` installs
// exactly what the lockfile holds. Run after `npm install`; .ci/run runs it before `npm ci`.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const has = (from, dep) => {
  // Node's resolution: the nearest node_modules/<dep> walking up from the dependent's folder.
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf("/node_modules/")))) {
    if (lock.packages[`${dir ? `${dir}/` : ""}node_modules/${dep}`]) return true;
    if (!dir) return false;
  }
};
const removed = [];
for (const [path, node] of Object.entries(lock.packages ?? {})) {
  for (const dep of Object.keys(node.optionalDependencies ?? {})) {
    if (!has(path, dep)) {
      delete node.optionalDependencies[dep];
      removed.push(dep);
    }
  }
}
if (removed.length) {
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`prune-lockfile: dropped ${removed.length} optional packages the registry does not serve`);
}
