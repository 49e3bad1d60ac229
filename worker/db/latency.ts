/**
 * D1 latency mode, for the benches only (bench/chat-overhead.mjs): locally, miniflare's D1 answers in
 * microseconds, while in production every query is a round trip to the database's one primary,
 * often tens to 150 ms away. With TALA_D1_DELAY_MS set in local mode (`npm start` passes it), every
 * D1 query of the isolate (the Worker's and its Durable Objects', which share the isolate locally)
 * waits that long before it runs, and is recorded (time, first words of its SQL) in a bounded ring
 * that GET /api/dev/d1-log reads and DELETE clears. A batch is one round trip, as in production.
 *
 * Inert and free when the variable is absent, and impossible outside local mode: the patch is
 * applied only when ENVIRONMENT is "local".
 */
import { isLocal, type Env } from "../env";

export interface D1LogEntry {
  /** Epoch ms when the query was sent (before the delay). */
  at: number;
  sql: string;
}

const RING = 2000;
const log: D1LogEntry[] = [];
let delayMs = 0;
let patched = false;

function record(sql: string) {
  log.push({ at: Date.now(), sql: sql.replace(/\s+/g, " ").trim().slice(0, 80) });
  if (log.length > RING) log.splice(0, log.length - RING);
}

const wait = () => (delayMs > 0 ? new Promise<void>((resolve) => setTimeout(resolve, delayMs)) : Promise.resolve());

type Fn = (...args: unknown[]) => Promise<unknown>;

/** Wraps `name` on `proto` so each call records `sqlOf(this, args)` and waits before running. */
function delayMethod(proto: Record<string, unknown>, name: string, sqlOf: (self: unknown, args: unknown[]) => string) {
  const original = proto[name];
  if (typeof original !== "function") return;
  proto[name] = async function (this: unknown, ...args: unknown[]) {
    record(sqlOf(this, args));
    await wait();
    return (original as Fn).apply(this, args);
  };
}

/** Applies the latency mode once per isolate, when the configuration asks for it. */
export function applyD1Latency(env: Env): void {
  if (patched || env.TALA_D1_DELAY_MS === undefined || env.TALA_D1_DELAY_MS === "" || !isLocal(env)) return;
  patched = true;
  delayMs = Math.max(0, Math.min(5000, Number(env.TALA_D1_DELAY_MS) || 0));
  const db = env.DB as unknown as { prepare(sql: string): object };
  const statementProto = Object.getPrototypeOf(db.prepare("SELECT 1")) as Record<string, unknown>;
  const sqlOfStatement = (self: unknown) => String((self as { statement?: string }).statement ?? "statement");
  for (const name of ["first", "all", "run", "raw"]) delayMethod(statementProto, name, sqlOfStatement);
  const dbProto = Object.getPrototypeOf(db) as Record<string, unknown>;
  delayMethod(dbProto, "batch", (_self, args) => `batch of ${(args[0] as unknown[] | undefined)?.length ?? 0}`);
  delayMethod(dbProto, "exec", (_self, args) => String(args[0] ?? "exec"));
}

/** The latency mode's state and the queries recorded since the last reset (null when it is off). */
export function d1Log(): { delayMs: number; queries: D1LogEntry[] } | null {
  return patched ? { delayMs, queries: [...log] } : null;
}

export function resetD1Log(): void {
  log.length = 0;
}
