import type { Context } from "hono";

/**
 * The caller's network, the key of every per-IP counter (throttles, guest quota, a network's
 * share of an assistant's day). Cloudflare's edge sets `cf-connecting-ip` and overwrites any value
 * the client sent; no other header is trusted (a client picks `x-real-ip` or `x-forwarded-for`
 * itself). Locally, where there is no edge, every caller is 127.0.0.1 unless a test says otherwise.
 *
 * IPv6 counts per /64: an ISP gives each customer at least a /64 (2^64 addresses), so counting
 * single addresses would give one machine a fresh allowance per address.
 */
export function clientIp(c: Context): string {
  return networkOf(c.req.header("cf-connecting-ip") ?? "127.0.0.1");
}

/** An IPv4 address as is; an IPv6 address as its /64 prefix (`2001:db8:0:1::/64`); anything else as is. */
export function networkOf(ip: string): string {
  const address = ip.trim().toLowerCase();
  if (!address.includes(":")) return address;
  // An IPv4-mapped address is that IPv4 caller, not a member of the ::/64 network.
  const mapped = /^\[?::ffff:(\d{1,3}(?:\.\d{1,3}){3})\]?$/.exec(address);
  if (mapped) return mapped[1]!;
  const groups = expandIpv6(address);
  return groups ? `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64` : address;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail counts as two), or null. */
function expandIpv6(address: string): string[] | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const halves = bare.split("::");
  if (halves.length > 2) return null;
  const part = (s: string) => (s ? s.split(":") : []).flatMap((g) => (g.includes(".") ? ipv4Groups(g) : [g]));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(missing).fill("0"), ...tail];
  return groups.every((g) => /^[0-9a-f]{1,4}$/.test(g)) ? groups : null;
}

function ipv4Groups(v4: string): string[] {
  const b = v4.split(".").map(Number);
  if (b.length !== 4 || b.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return ["x"];
  return [((b[0]! << 8) | b[1]!).toString(16), ((b[2]! << 8) | b[3]!).toString(16)];
}
