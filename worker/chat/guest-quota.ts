import { guestQuota } from "../../contract";
import type { Env } from "../env";
import { consumeRateLimit, peekRateLimit, refundRateLimit } from "../services/rate-limit";

export interface GuestQuotaResult {
  allowed: boolean;
  /** Messages left today: the smaller of the guest's and the IP's counters. */
  remaining: number;
  limit: number;
  /** Which counter that is (or refused): the guest's own, or the network's shared pool. */
  scope: "guest" | "network";
}

const lower = (guest: number, byIp: number) => ({ remaining: Math.min(guest, byIp), scope: byIp < guest ? ("network" as const) : ("guest" as const) });

const perGuest = { limit: guestQuota.perGuestPerDay, windowMs: guestQuota.windowMs };
const perIp = { limit: guestQuota.perIpPerDay, windowMs: guestQuota.windowMs };
const GUEST_SCOPE = "guest-messages:guest";
const IP_SCOPE = "guest-messages:ip";

/**
 * Counts one guest message against the guest's counter, then the IP's, one after the other (never
 * in parallel): a message refused by the first never reaches the second, so L+k simultaneous
 * messages of one guest against a quota of L are refused exactly k times (see enforceThrottle).
 * A message refused by the IP counter gives the guest's own back (the network's pool refused it,
 * not the guest's quota).
 */
export async function consumeGuestMessage(env: Env, guestId: string, ip: string, now = Date.now()): Promise<GuestQuotaResult> {
  const guest = await consumeRateLimit(env, GUEST_SCOPE, guestId, perGuest, 1, now);
  if (!guest.allowed) return { allowed: false, remaining: 0, limit: perGuest.limit, scope: "guest" };
  const byIp = await consumeRateLimit(env, IP_SCOPE, ip, perIp, 1, now);
  if (!byIp.allowed) {
    await refundRateLimit(env, GUEST_SCOPE, guestId, perGuest, 1, now);
    return { allowed: false, remaining: 0, limit: perGuest.limit, scope: "network" };
  }
  return { allowed: true, limit: perGuest.limit, ...lower(guest.remaining, byIp.remaining) };
}

/** The guest's messages left today, without counting one. */
export async function peekGuestQuota(env: Env, guestId: string, ip: string): Promise<GuestQuotaResult> {
  const [guest, byIp] = await Promise.all([peekRateLimit(env, GUEST_SCOPE, guestId, perGuest), peekRateLimit(env, IP_SCOPE, ip, perIp)]);
  const left = lower(guest.remaining, byIp.remaining);
  return { allowed: left.remaining > 0, limit: perGuest.limit, ...left };
}
