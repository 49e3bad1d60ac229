import { describe, expect, it } from "vitest";
import { dohEndpoint, isBlockedHostname, isPublicAddress, resolvePublic } from "./address";

describe("isPublicAddress", () => {
  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "192.0.1.1",
    "198.20.0.1",
    "223.255.255.255",
    "2606:4700::1111",
    "2001:4860:4860::8888",
    "[2a00:1450:4007:80e::200e]",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("%s is public", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "100.64.0.1",
    "100.127.255.254",
    "127.0.0.1",
    "127.255.255.255",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.1",
    "192.0.2.1",
    "192.88.99.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::127.0.0.1",
    "64:ff9b::10.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b:1::1",
    "100::1",
    "2001::1",
    "2001:db8::1",
    "2002:7f00:1::",
    "3fff::1",
    "fc00::1",
    "fd00:ec2::254",
    "fe80::1",
    "fe80::1%eth0",
    "fec0::1",
    "ff02::1",
    "not an ip",
    "1.2.3",
    "1.2.3.256",
    "01.2.3.4.5",
    "1::2::3",
    "12345::1",
  ])("%s is not public", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
});

describe("isBlockedHostname", () => {
  it.each([
    "localhost",
    "LOCALHOST.",
    "app.localhost",
    "printer.local",
    "metadata.google.internal",
    "db.internal",
    "router.home.arpa",
    "intranet",
    "127.0.0.1",
    "[::1]",
    "::1",
    "169.254.169.254",
    // The WHATWG URL parser turns these into 127.0.0.1, as fetch would.
    "0x7f.1",
    "2130706433",
    "0177.0.0.1",
    "127.1",
    "[::ffff:127.0.0.1]",
    "",
  ])("%s is blocked", (host) => {
    expect(isBlockedHostname(host)).toBe(true);
  });

  it.each(["example.com", "www.example.co.uk", "8.8.8.8", "[2606:4700::1111]", "localhost.example.com", "xn--bcher-kva.example"])("%s is not blocked", (host) => {
    expect(isBlockedHostname(host)).toBe(false);
  });
});

type Answer = { Status: number; Answer?: Array<{ name: string; type: number; data: string }> };

/** A DoH fetcher answering from a table by (name, type); records every query. */
function doh(table: Record<string, Answer | "fail" | "hang">) {
  const queries: string[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    expect(`${url.origin}${url.pathname}`).toBe(dohEndpoint);
    expect(new Headers(init?.headers).get("accept")).toBe("application/dns-json");
    const key = `${url.searchParams.get("name")} ${url.searchParams.get("type")}`;
    queries.push(key);
    const answer = table[key] ?? { Status: 0 };
    if (answer === "fail") return new Response("oops", { status: 502 });
    if (answer === "hang")
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    return Response.json(answer);
  }) as typeof fetch;
  return { fetcher, queries };
}

describe("resolvePublic", () => {
  it("accepts a name whose A and AAAA answers are all public, following the resolver's CNAME chain", async () => {
    const { fetcher, queries } = doh({
      "docs.example.com A": {
        Status: 0,
        Answer: [
          { name: "docs.example.com", type: 5, data: "example.cdn.test." },
          { name: "example.cdn.test", type: 1, data: "93.184.216.34" },
        ],
      },
      "docs.example.com AAAA": { Status: 0, Answer: [{ name: "example.cdn.test", type: 28, data: "2606:4700::1111" }] },
    });
    expect(await resolvePublic("docs.example.com", fetcher)).toEqual({ ok: true, addresses: ["93.184.216.34", "2606:4700::1111"] });
    expect(queries.sort()).toEqual(["docs.example.com A", "docs.example.com AAAA"]);
  });

  it("refuses when any answer is private, or a CNAME points to a local name", async () => {
    const rebinding = doh({
      "mixed.test A": { Status: 0, Answer: [{ name: "mixed.test", type: 1, data: "93.184.216.34" }, { name: "mixed.test", type: 1, data: "10.0.0.5" }] },
    });
    expect(await resolvePublic("mixed.test", rebinding.fetcher)).toEqual({ ok: false, reason: "not-public" });
    const mapped = doh({ "v6.test AAAA": { Status: 0, Answer: [{ name: "v6.test", type: 28, data: "::ffff:169.254.169.254" }] } });
    expect(await resolvePublic("v6.test", mapped.fetcher)).toEqual({ ok: false, reason: "not-public" });
    const cname = doh({ "alias.test A": { Status: 0, Answer: [{ name: "alias.test", type: 5, data: "metadata.google.internal." }] } });
    expect(await resolvePublic("alias.test", cname.fetcher)).toEqual({ ok: false, reason: "not-public" });
  });

  it("is unresolvable without addresses, on NXDOMAIN, a failed or timed-out look-up", async () => {
    expect(await resolvePublic("empty.test", doh({}).fetcher)).toEqual({ ok: false, reason: "unresolvable" });
    expect(await resolvePublic("gone.test", doh({ "gone.test A": { Status: 3 }, "gone.test AAAA": { Status: 3 } }).fetcher)).toEqual({ ok: false, reason: "unresolvable" });
    expect(await resolvePublic("servfail.test", doh({ "servfail.test A": { Status: 2 } }).fetcher)).toEqual({ ok: false, reason: "unresolvable" });
    const half = doh({ "half.test A": { Status: 0, Answer: [{ name: "half.test", type: 1, data: "93.184.216.34" }] }, "half.test AAAA": "fail" });
    expect(await resolvePublic("half.test", half.fetcher)).toEqual({ ok: false, reason: "unresolvable" });
    const slow = doh({ "slow.test A": "hang" });
    expect(await resolvePublic("slow.test", slow.fetcher, 30)).toEqual({ ok: false, reason: "unresolvable" });
  });

  it("checks IP literals and blocked names without a look-up", async () => {
    const { fetcher, queries } = doh({});
    expect(await resolvePublic("8.8.8.8", fetcher)).toEqual({ ok: true, addresses: ["8.8.8.8"] });
    expect(await resolvePublic("[2606:4700::1111]", fetcher)).toEqual({ ok: true, addresses: ["2606:4700::1111"] });
    expect(await resolvePublic("2130706433", fetcher)).toEqual({ ok: false, reason: "not-public" });
    expect(await resolvePublic("localhost", fetcher)).toEqual({ ok: false, reason: "not-public" });
    expect(queries).toEqual([]);
  });
});
