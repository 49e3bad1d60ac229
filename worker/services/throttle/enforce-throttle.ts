import { throttles, type ThrottleName } from "../../../contract";
import { rateLimited } from "../../http/errors";
import { consumeRateLimit, retryAfterSeconds } from "../rate-limit";
import type { ServiceContext } from "../context";

export interface ThrottleInput {
  /** Which contract limit applies (`throttles[throttle]`). */
  throttle: ThrottleName;
  /** The endpoint being protected, so each keeps its own counters (e.g. "login"). */
  scope: string;
  /** Counter kind → key, checked in order, e.g. `[["ip", "1.2.3.4"], ["email", "a@b.c"]]`. */
  keys: ReadonlyArray<readonly [kind: string, key: string]>;
}

/**
 * Counts one call against each key and throws RATE_LIMITED (429) at the first one over its limit.
 * Keys are consumed one after another, never in parallel: a call refused by the first counter
 * never reaches the second, so with L+k simultaneous calls sharing every key the same L pass
 * both counters and exactly k are refused. (In parallel, each counter could admit a different
 * L-subset and refuse more than k.)
 */
export async function enforceThrottle({ ctx, input }: { ctx: ServiceContext; input: ThrottleInput }): Promise<void> {
  const window = throttles[input.throttle];
  for (const [kind, key] of input.keys) {
    const result = await consumeRateLimit(ctx.env, `${input.scope}:${kind}`, key, window);
    if (!result.allowed) throw rateLimited(retryAfterSeconds(result));
  }
}
