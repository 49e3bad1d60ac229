/**
 * Every configuration name Tala reads (README "Configuration"). `npm start` passes these from the
 * process environment to the Worker, over what .dev.vars says.
 */
export const CONFIG_NAMES = [
  "LLM_BASE_URL",
  "LLM_API_KEY",
  "LLM_MODEL",
  "EMBEDDING_MODEL",
  "FIREBASE_PROJECT_ID",
  "FIREBASE_API_KEY",
  "FIREBASE_AUTH_DOMAIN",
  "ENCRYPTION_KEY",
  "EMAIL_API_URL",
  "EMAIL_API_KEY",
  "EMAIL_FROM",
  // Benches only (bench/chat-overhead.mjs): every D1 query waits this long, local mode only.
  "TALA_D1_DELAY_MS",
];

/** Keeps wrangler and miniflare off the network (DESIGN.md "Toolchain"). */
export const OFFLINE_ENV = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

/** Parses a dotenv-style file (KEY=value, # comments, optional quotes). */
export function parseDotenv(text) {
  const out = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (!m) continue;
    let value = m[2];
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, "");
    out[m[1]] = value;
  }
  return out;
}

/** Serialises values for `wrangler dev --env-file`. */
export function toDotenv(values) {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${JSON.stringify(String(v))}`)
    .join("\n") + "\n";
}
