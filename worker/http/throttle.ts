import type { Context } from "hono";
import type { ThrottleName } from "../../contract";
import { enforceThrottle } from "../services/throttle/enforce-throttle";
import type { AppEnv } from "./context";
import { clientIp } from "./client-ip";
import { serviceContext } from "./service-context";

/**
 * Counts this request against `throttles[name]` for the caller's IP and, when given, the account
 * key (an e-mail address or user id) it targets: throttling per account too stops one attacker
 * spreading guesses over many IPs. Throws RATE_LIMITED (429, Retry-After) when over.
 */
export function throttle(c: Context<AppEnv>, name: ThrottleName, scope: string, account?: string): Promise<void> {
  const keys: [string, string][] = [["ip", clientIp(c)]];
  if (account) keys.push(["account", account]);
  return enforceThrottle({ ctx: serviceContext(c), input: { throttle: name, scope, keys } });
}
