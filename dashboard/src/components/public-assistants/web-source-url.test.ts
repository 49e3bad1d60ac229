import { describe, expect, it } from "vitest";
import { withScheme } from "./web-source-url";

describe("withScheme", () => {
  it("puts https:// in front of an address without a scheme", () => {
    expect(withScheme("example.com/help")).toBe("https://example.com/help");
    expect(withScheme("  www.example.com ")).toBe("https://www.example.com");
    expect(withScheme("//example.com")).toBe("https://example.com");
  });
  it("keeps a scheme the owner wrote, whichever it is (the server says which it takes)", () => {
    expect(withScheme("http://example.com")).toBe("http://example.com");
    expect(withScheme("HTTPS://Example.com")).toBe("HTTPS://Example.com");
    expect(withScheme("ftp://example.com")).toBe("ftp://example.com");
  });
  it("leaves an empty field empty (the server's sentence asks for an address)", () => {
    expect(withScheme("   ")).toBe("");
  });
});
