import { describe, expect, it } from "vitest";
import { networkOf } from "./client-ip";

describe("networkOf", () => {
  it("keeps an IPv4 address whole", () => {
    expect(networkOf("203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts every address of an IPv6 /64 as one network", () => {
    const one = networkOf("2001:db8:1:2::1");
    expect(one).toBe("2001:db8:1:2::/64");
    expect(networkOf("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe(one);
    expect(networkOf("2001:db8:1:2:aaaa::")).toBe(one);
    expect(networkOf("2001:db8:1:3::1")).not.toBe(one);
  });

  it("reads compressed, bracketed and IPv4-tailed forms", () => {
    expect(networkOf("::1")).toBe("0:0:0:0::/64");
    expect(networkOf("[2001:db8::5]")).toBe("2001:db8:0:0::/64");
    expect(networkOf("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(networkOf("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(networkOf("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("leaves anything unparseable as it is (its own counter)", () => {
    expect(networkOf("2001:db8:::1")).toBe("2001:db8:::1");
    expect(networkOf("not-an-ip")).toBe("not-an-ip");
  });
});
