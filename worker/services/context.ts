import type { TeamRole, User } from "../../contract";
import type { Db } from "../db/client";
import type { publicAssistants } from "../db/schema";
import type { Env } from "../env";

/**
 * What the route guard (http/team-guard.ts) resolved for a request: the signed-in user, the
 * workspace the call acts in and their role there, and on `/api/public-assistants/{id}/…` the
 * assistant's row it loaded in the same query, so `requirePublicAssistant` does not read it again.
 */
export interface RequestAccess {
  user: User;
  workspaceId: string;
  role: TeamRole;
  /** When the guard began reading the caller's role (a lease asked with it is refused after a later revocation). */
  checkedAt?: number;
  assistant?: typeof publicAssistants.$inferSelect;
}

/**
 * What every service receives as `ctx`: the bindings and the request's database client.
 * Built once per request by `serviceContext(c)` in worker/http/service-context.ts.
 */
export interface ServiceContext {
  env: Env;
  db: Db;
  /**
   * The request's `ExecutionContext.waitUntil`, when there is one (a Worker request). Absent in a
   * Durable Object, a queue consumer or a test that builds its own context: `afterResponse` then
   * runs the work in line instead.
   */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** Set on routes behind the team guard; absent for direct callers (tests, objects, queues), which keep the owner-only checks. */
  access?: RequestAccess | undefined;
}

/**
 * Runs `work` off the response path: handed to `waitUntil` when the context has one (the promise
 * returned is already settled), else run in line (the promise settles when the work is done, so
 * a caller without an execution context never leaves it dangling). A failure is logged as
 * `event`, never thrown: the work is bookkeeping the request does not depend on.
 */
export function afterResponse(ctx: ServiceContext, event: string, work: () => Promise<unknown>, fields: Record<string, unknown> = {}): Promise<void> {
  const done = (async () => {
    try {
      await work();
    } catch (error) {
      console.error(JSON.stringify({ event, ...fields, error: String(error) }));
    }
  })();
  if (!ctx.waitUntil) return done;
  try {
    ctx.waitUntil(done);
    return Promise.resolve();
  } catch {
    // An execution context that no longer accepts work (the request already ended): run in line.
    return done;
  }
}
