import { describe, expect, it } from "vitest";
import { normalizeOrigin, publicAssistantBody } from "./public-assistants";

describe("normalizeOrigin", () => {
  it("normalises origins as browsers send them", () => {
    expect(normalizeOrigin("HTTPS://Shop.Example.COM:443/")).toBe("https://shop.example.com");
    expect(normalizeOrigin(" http://localhost:3000 ")).toBe("http://localhost:3000");
    expect(normalizeOrigin("http://127.0.0.1:80")).toBe("http://127.0.0.1");
    expect(normalizeOrigin("https://xn--bcher-kva.example")).toBe("https://xn--bcher-kva.example");
  });

  it("refuses anything that is not scheme://host[:port]", () => {
    for (const bad of ["example.com", "https://", "https://a.example/path", "https://a.example?q", "https://a.example#x", "ftp://a.example", "https://*.a.example", "https://u:p@a.example", "javascript:alert(1)", "null", ""]) {
      expect(normalizeOrigin(bad), bad).toBeNull();
    }
  });
});

describe("publicAssistantBody", () => {
  it("de-duplicates normalised origins and upper-cases colours", () => {
    const parsed = publicAssistantBody.parse({ allowedOrigins: ["https://a.example", "HTTPS://A.example/"], config: { customization: { primaryColor: "#abcdef" } } });
    expect(parsed.allowedOrigins).toEqual(["https://a.example"]);
    expect(parsed.config?.customization?.primaryColor).toBe("#ABCDEF");
  });
});
