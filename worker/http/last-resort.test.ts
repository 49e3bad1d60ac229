import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBodySchema, serverMessages } from "../../contract";
import { lastResortResponse } from "./last-resort";

afterEach(() => vi.restoreAllMocks());

describe("lastResortResponse", () => {
  it("answers the envelope's generic 500 as JSON with the API's headers, never the error's text", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = lastResortResponse(new Request("http://tala.test/api/x", { headers: { "x-request-id": "req-9" } }), new Error("secret internals"));
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    const text = await res.text();
    expect(text).not.toContain("secret internals");
    expect(errorBodySchema.parse(JSON.parse(text))).toEqual({ error: serverMessages.internal, code: "INTERNAL_ERROR", requestId: "req-9" });
  });
});
