import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs build script, without types
import { deployUrlProblem, publicUrl } from "./public-url.mjs";

describe("publicUrl", () => {
  it("is the address npm start serves on when nothing is configured", () => {
    expect(publicUrl({})).toBe("http://127.0.0.1:8787");
    expect(publicUrl({ PORT: "8799" })).toBe("http://127.0.0.1:8799");
    expect(publicUrl({ HOST: "0.0.0.0", PORT: "3000" })).toBe("http://0.0.0.0:3000");
  });

  it("is PUBLIC_URL's origin when set (SITE_URL, the older name, too)", () => {
    expect(publicUrl({ PUBLIC_URL: "https://tala.example.com/some/path" })).toBe("https://tala.example.com");
    expect(publicUrl({ SITE_URL: "https://old.example.com/" })).toBe("https://old.example.com");
    expect(publicUrl({ PUBLIC_URL: "https://new.example.com", SITE_URL: "https://old.example.com" })).toBe("https://new.example.com");
  });

  it("refuses what is not an http(s) address, naming the setting", () => {
    expect(() => publicUrl({ PUBLIC_URL: "tala.example.com" })).toThrow(/PUBLIC_URL/);
    expect(() => publicUrl({ PUBLIC_URL: "ftp://tala.example.com" })).toThrow(/PUBLIC_URL/);
  });
});

describe("deployUrlProblem", () => {
  it("requires a public https address to deploy", () => {
    expect(deployUrlProblem({})).toMatch(/Set PUBLIC_URL/);
    expect(deployUrlProblem({ PUBLIC_URL: "http://127.0.0.1:8787" })).toMatch(/only this machine/);
    expect(deployUrlProblem({ PUBLIC_URL: "http://localhost:8787" })).toMatch(/only this machine/);
    expect(deployUrlProblem({ PUBLIC_URL: "http://tala.example.com" })).toMatch(/https/);
    expect(deployUrlProblem({ PUBLIC_URL: "https://tala.example.com" })).toBeNull();
  });
});
