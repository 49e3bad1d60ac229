import { throttles } from "../../../contract";
import { rateLimited } from "../../http/errors";
import { consumeRateLimit, refundRateLimit, retryAfterSeconds, type Window } from "../rate-limit";
import type { ServiceContext } from "../context";

/** The RateLimiter scopes of the three sign-in counters (keys: `email|ip`, ip, email). */
export const loginCounterScopes = { pair: "login:pair", ip: "login:ip", account: "login:account" } as const;

export interface LoginAttempt {
  /** The password was right: give back every slot this attempt took (only failures count). */
  succeeded(): Promise<void>;
}

/**
 * Reserves one sign-in attempt for `email` from `ip` on the three contract counters, in order:
 * the (account, IP) pair, the IP, the account. The slot is taken before the password is checked,
 * so N simultaneous guesses cannot all slip past a counter that would only learn of their failure
 * afterwards; a correct password then gives it back (`succeeded`), so counters hold failures only.
 *
 * The pair comes first: an attacker refused there takes nothing from the account's counter, so
 * the owner, from any other address, still signs in with the right password. A refusal by a later
 * counter gives back the earlier ones. Throws RATE_LIMITED (429, Retry-After) when over.
 */
export async function reserveLoginAttempt({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { email: string; ip: string };
}): Promise<LoginAttempt> {
  const now = Date.now();
  const counters: [scope: string, key: string, window: Window][] = [
    [loginCounterScopes.pair, `${input.email}|${input.ip}`, throttles.login],
    [loginCounterScopes.ip, input.ip, throttles.loginIp],
    [loginCounterScopes.account, input.email, throttles.loginAccount],
  ];
  const taken: typeof counters = [];
  const giveBack = () => Promise.all(taken.map(([scope, key, window]) => refundRateLimit(ctx.env, scope, key, window, 1, now)));
  for (const counter of counters) {
    const [scope, key, window] = counter;
    const result = await consumeRateLimit(ctx.env, scope, key, window, 1, now);
    if (!result.allowed) {
      await giveBack();
      throw rateLimited(retryAfterSeconds(result));
    }
    taken.push(counter);
  }
  return {
    async succeeded() {
      await giveBack();
    },
  };
}
