import { guestQuota } from "../../contract";
import type { Env } from "../env";
import { consumeRateLimit, peekRateLimit } from "../services/rate-limit";

export interface GuestQuotaResult {
  allowed: boolean;
  /** Messages left today: the smaller of the guest's and the IP's counters. */
  remaining: number;
  limit: number;
}

const perGuest = { limit: guestQuota.perGuestPerDay, windowMs: guestQuota.windowMs };
const perIp = { limit: guestQuota.perIpPerDay, windowMs: guestQuota.windowMs };
const GUEST_SCOPE = "guest-messages:guest";
const IP_SCOPE = "guest-messages:ip";

/**
 * Counts one guest message against the guest's counter, then the IP's, one after the other (never
 * in parallel): a message refused by the first never reaches the second, so L+k simultaneous
 * messages of one guest against a quota of L are refused exactly k times (see enforceThrottle).
 * A message refused by the IP counter has still used one of the guest's own.
 */
export async function consumeGuestMessage(env: Env, guestId: string, ip: string): Promise<GuestQuotaResult> {
  const guest = await consumeRateLimit(env, GUEST_SCOPE, guestId, perGuest);
  if (!guest.allowed) return { allowed: false, remaining: 0, limit: perGuest.limit };
  const byIp = await consumeRateLimit(env, IP_SCOPE, ip, perIp);
  if (!byIp.allowed) return { allowed: false, remaining: 0, limit: perGuest.limit };
  return { allowed: true, remaining: Math.min(guest.remaining, byIp.remaining), limit: perGuest.limit };
}

/** The guest's messages left today, without counting one. */
export async function peekGuestQuota(env: Env, guestId: string, ip: string): Promise<GuestQuotaResult> {
  const [guest, byIp] = await Promise.all([peekRateLimit(env, GUEST_SCOPE, guestId, perGuest), peekRateLimit(env, IP_SCOPE, ip, perIp)]);
  const remaining = Math.min(guest.remaining, byIp.remaining);
  return { allowed: remaining > 0, remaining, limit: perGuest.limit };
}
