import { auth, throttles } from "../../../contract";
import { rateLimited } from "../../http/errors";
import { consumeRateLimit, peekRateLimit, refundRateLimit, retryAfterSeconds, type Window } from "../rate-limit";
import type { ServiceContext } from "../context";

/**
 * The RateLimiter scopes of the three sign-in counters (keys: `email|ip`, ip, email), and of the
 * places (`email|ip`) the account signed in from lately.
 */
export const loginCounterScopes = { pair: "login:pair", ip: "login:ip", account: "login:account", knownPlace: "login:known" } as const;

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
 * the owner, from any other address, still signs in with the right password. The account's counter
 * (guessing spread over many addresses) is skipped for a place the account signed in from within
 * the last `auth.knownPlaceWindowMs` window or the one before: a distributed guesser can make a
 * brand-new place wait, never the owner's usual ones. A refusal by a later counter gives back the
 * earlier ones. Throws RATE_LIMITED (429, Retry-After) when over.
 */
export async function reserveLoginAttempt({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { email: string; ip: string };
}): Promise<LoginAttempt> {
  const now = Date.now();
  const place = `${input.email}|${input.ip}`;
  const counters: [scope: string, key: string, window: Window][] = [
    [loginCounterScopes.pair, place, throttles.login],
    [loginCounterScopes.ip, input.ip, throttles.loginIp],
    [loginCounterScopes.account, input.email, throttles.loginAccount],
  ];
  const taken: typeof counters = [];
  const giveBack = () => Promise.all(taken.map(([scope, key, window]) => refundRateLimit(ctx.env, scope, key, window, 1, now)));
  for (const counter of counters) {
    const [scope, key, window] = counter;
    if (scope === loginCounterScopes.account && (await isKnownPlace(ctx, place, now))) continue;
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
      await consumeRateLimit(ctx.env, loginCounterScopes.knownPlace, place, knownPlaceWindow, 1, now);
    },
  };
}

/** Counts sign-ins per place only to remember it (never refuses: the limit is out of reach). */
const knownPlaceWindow: Window = { limit: Number.MAX_SAFE_INTEGER, windowMs: auth.knownPlaceWindowMs };

/** Signed in from `place` in the current window or the one before (the counter keeps the latest window). */
async function isKnownPlace(ctx: ServiceContext, place: string, now: number): Promise<boolean> {
  const seen = await peekRateLimit(ctx.env, loginCounterScopes.knownPlace, place, knownPlaceWindow, now - knownPlaceWindow.windowMs);
  return seen.remaining < knownPlaceWindow.limit;
}
