import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema";

/** The typed drizzle client every service receives in its `ctx`. */
export type Db = DrizzleD1Database<typeof schema>;

const clients = new WeakMap<D1Database, Db>();

/**
 * The drizzle client of a D1 binding, made once per isolate and binding. `drizzle(binding, { schema })`
 * walks the whole schema to build its relational config (about 1 ms of CPU locally): per request,
 * that was the largest part of a request that touches no storage. The client holds no request
 * state (every query is sent through the binding when it runs), so requests can share it.
 */
export function dbOf(binding: D1Database): Db {
  let db = clients.get(binding);
  if (!db) {
    db = drizzle(binding, { schema });
    clients.set(binding, db);
  }
  return db;
}

type Statements = readonly [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/**
 * Runs several writes as one D1 batch. D1 has no interactive transactions; a batch is the one
 * way to make statements commit or fail together, so every multi-statement write goes here.
 */
export function writeBatch<T extends Statements>(db: Db, statements: T): Promise<BatchResponse<T>> {
  return db.batch(statements);
}

/** True when a write failed on a UNIQUE index (drizzle wraps D1's error, so the cause is checked too). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (/UNIQUE constraint failed/i.test(e.message)) return true;
  }
  return false;
}
