import { webSources } from "../../../contract";

/**
 * Which hosts the crawler may fetch: public addresses only (no loopback, private, link-local,
 * cloud metadata, reserved or documentation ranges), checked for IP literals directly and for
 * names through a DNS-over-HTTPS look-up (`resolvePublic`).
 */

/** IPv4 dotted quad → 32-bit number, or null. Strict: four decimal parts 0–255, nothing else. */
function parseIpv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const byte = Number(part);
    if (byte > 255) return null;
    value = value * 256 + byte;
  }
  return value;
}

/** IPv6 text → eight 16-bit groups, or null. Accepts "::" compression, an embedded IPv4 tail and a zone ("%eth0", dropped). */
function parseIpv6(text: string): number[] | null {
  let value = text;
  const zone = value.indexOf("%");
  if (zone >= 0) value = value.slice(0, zone);
  if (!value.includes(":") || value.length > 45) return null;
  const lastColon = value.lastIndexOf(":");
  if (value.slice(lastColon + 1).includes(".")) {
    // An IPv4 tail (::ffff:127.0.0.1) is the last two groups written in decimal.
    const v4 = parseIpv4(value.slice(lastColon + 1));
    if (v4 === null) return null;
    value = `${value.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = value.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const words: number[] = [];
  for (const group of [...head, ...rest]) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    words.push(parseInt(group, 16));
  }
  if (halves.length === 1 ? words.length !== 8 : words.length > 7) return null;
  const zeros = new Array<number>(8 - words.length).fill(0);
  return [...words.slice(0, head.length), ...zeros, ...words.slice(head.length)];
}

/** [network, prefix length] pairs of IPv4 ranges that are not public (IANA special-purpose registry). */
const ipv4NotPublic: Array<[string, number]> = [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 included
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, 255.255.255.255 broadcast included
];
const ipv4Ranges = ipv4NotPublic.map(([network, bits]) => ({ base: parseIpv4(network)!, size: 2 ** (32 - bits) }));

function isPublicIpv4(value: number): boolean {
  return !ipv4Ranges.some(({ base, size }) => value >= base && value < base + size);
}

/** True when the eight groups start with `prefix` (groups) for `bits` bits. */
function inPrefix(words: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((words[i]! & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

const v4Of = (high: number, low: number) => high * 65536 + low;

function isPublicIpv6(w: number[]): boolean {
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64) reach the IPv4 address they carry.
  if (inPrefix(w, [0, 0, 0, 0, 0, 0xffff], 96)) return isPublicIpv4(v4Of(w[6]!, w[7]!));
  if (inPrefix(w, [0x64, 0xff9b], 96)) return isPublicIpv4(v4Of(w[6]!, w[7]!));
  // 6to4 (2002::/16) carries an IPv4 address in its next 32 bits.
  if (w[0] === 0x2002) return isPublicIpv4(v4Of(w[1]!, w[2]!));
  // Only global unicast (2000::/3) is public: this refuses ::, ::1, IPv4-compatible ::a.b.c.d,
  // 64:ff9b:1::/48, 100::/64, fc00::/7 (unique local, fd00:ec2::254 of EC2), fe80::/10, fec0::/10, ff00::/8.
  if ((w[0]! & 0xe000) !== 0x2000) return false;
  if (inPrefix(w, [0x2001, 0], 23)) return false; // IETF protocol assignments: Teredo, ORCHID, benchmarking
  if (inPrefix(w, [0x2001, 0x0db8], 32)) return false; // documentation
  if (inPrefix(w, [0x3fff, 0], 20)) return false; // documentation (RFC 9637)
  if (inPrefix(w, [0x5f00], 16)) return false; // SRv6 SIDs
  return true;
}

/**
 * True when `ip` (IPv4 dotted quad or IPv6, brackets allowed) is a public unicast address. Anything
 * that does not parse is not public.
 */
export function isPublicAddress(ip: string): boolean {
  const text = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const v4 = parseIpv4(text);
  if (v4 !== null) return isPublicIpv4(v4);
  const v6 = parseIpv6(text);
  return v6 !== null && isPublicIpv6(v6);
}

/** True when `host` is an IP literal (IPv4 as the URL parser writes it, or bracketed or bare IPv6). */
export function isIpLiteral(host: string): boolean {
  return parseIpv4(host) !== null || parseIpv6(host.startsWith("[") ? host.slice(1, -1) : host) !== null;
}

/** Names that never point to a public website: special-use and never-delegated suffixes. */
const localSuffixes = ["localhost", "local", "internal", "home.arpa", "localdomain", "lan", "home", "corp", "intranet", "arpa"];

/** `host` as the WHATWG URL parser writes it (IPv4 in any of its forms becomes a dotted quad), or null. */
function canonicalHost(host: string): string | null {
  try {
    const hostname = new URL(`http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}/`).hostname;
    return hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  } catch {
    return null;
  }
}

/**
 * True when the crawler must not fetch `host` whatever DNS says: localhost and *.localhost,
 * *.local, *.internal (metadata.google.internal), *.home.arpa and other local suffixes, a name
 * with no dot, and IP literals that are not public. The host is first canonicalised by the WHATWG
 * URL parser, so 0x7f.1, 2130706433 and 0177.0.0.1 are 127.0.0.1 here as they are to fetch.
 */
export function isBlockedHostname(host: string): boolean {
  const name = canonicalHost(host);
  if (!name) return true;
  if (isIpLiteral(name)) return !isPublicAddress(name);
  if (!name.includes(".")) return true;
  return localSuffixes.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

export type ResolveResult = { ok: true; addresses: string[] } | { ok: false; reason: "not-public" | "unresolvable" };

/** DNS-over-HTTPS JSON API (RFC 8484's JSON sibling) of Cloudflare's resolver. */
export const dohEndpoint = "https://cloudflare-dns.com/dns-query";
const dnsTypes = { A: 1, CNAME: 5, AAAA: 28 } as const;
/** A DoH JSON answer is a few hundred bytes; anything much larger is not one. */
const maxDohAnswerChars = 64 * 1024;

interface DohAnswer {
  Status?: unknown;
  Answer?: unknown;
}

/** The A or AAAA addresses and CNAME targets of one answer, or null when the look-up failed. */
async function queryDoh(host: string, type: "A" | "AAAA", fetcher: typeof fetch, signal: AbortSignal): Promise<{ addresses: string[]; names: string[] } | null> {
  const response = await fetcher(`${dohEndpoint}?name=${encodeURIComponent(host)}&type=${type}`, {
    headers: { accept: "application/dns-json" },
    signal,
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  const text = await response.text();
  if (text.length > maxDohAnswerChars) return null;
  let parsed: DohAnswer;
  try {
    parsed = JSON.parse(text) as DohAnswer;
  } catch {
    return null;
  }
  // NOERROR with no records is an empty answer (a host with only IPv4 has no AAAA); anything else failed.
  if (parsed.Status !== 0) return parsed.Status === 3 ? { addresses: [], names: [] } : null;
  const addresses: string[] = [];
  const names: string[] = [];
  for (const record of Array.isArray(parsed.Answer) ? (parsed.Answer as unknown[]) : []) {
    if (!record || typeof record !== "object") continue;
    const { type: recordType, data } = record as { type?: unknown; data?: unknown };
    if (typeof data !== "string") continue;
    if (recordType === dnsTypes[type]) addresses.push(data);
    else if (recordType === dnsTypes.CNAME) names.push(data);
  }
  return { addresses, names };
}

/**
 * Resolves `host` through DNS-over-HTTPS (A and AAAA in parallel, CNAME chains as the resolver
 * returns them, `webSources.dnsTimeoutMs`) and accepts it only when every address is public and
 * there is at least one. A CNAME to a local name, any private address, a failed or timed-out
 * look-up all refuse. IP literals are checked without a look-up. Never throws.
 *
 * What this does not stop: DNS rebinding. The platform's fetch resolves the name again on its own,
 * and a hostile DNS server can answer a public address to this look-up and a private one a moment
 * later (the Workers fetch API cannot pin the address we checked). It is still worth it: it refuses
 * every name that plainly points inward (localtest.me, 127.0.0.1.nip.io, an internal name published
 * in public DNS) with a clear message for the owner, which matters wherever fetch can reach private
 * networks (local development, a self-hosted workerd, a future egress through a VPC). On Cloudflare
 * the platform itself refuses connections to its internal and private ranges, which is what stops
 * a rebinding attack there.
 */
export async function resolvePublic(host: string, fetcher: typeof fetch, timeoutMs: number = webSources.dnsTimeoutMs): Promise<ResolveResult> {
  if (isBlockedHostname(host)) return { ok: false, reason: "not-public" };
  const name = canonicalHost(host)!;
  if (isIpLiteral(name)) return { ok: true, addresses: [name.replace(/^\[|\]$/g, "")] };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const answers = await Promise.all([queryDoh(name, "A", fetcher, controller.signal), queryDoh(name, "AAAA", fetcher, controller.signal)]);
    if (answers.some((answer) => answer === null)) return { ok: false, reason: "unresolvable" };
    const addresses = answers.flatMap((answer) => answer!.addresses);
    const names = answers.flatMap((answer) => answer!.names);
    if (names.some((target) => isBlockedHostname(target))) return { ok: false, reason: "not-public" };
    if (addresses.some((address) => !isPublicAddress(address))) return { ok: false, reason: "not-public" };
    return addresses.length ? { ok: true, addresses } : { ok: false, reason: "unresolvable" };
  } catch {
    return { ok: false, reason: "unresolvable" };
  } finally {
    clearTimeout(timer);
  }
}
