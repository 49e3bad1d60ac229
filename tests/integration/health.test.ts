import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { errorBodySchema } from "../../contract";

const call = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`http://tala.test${path}`, init));

describe("routing", () => {
  it("answers /api/health with the database up", async () => {
    const res = await call("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: "ok" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers an unknown /api path with the error envelope", async () => {
    const res = await call("/api/does-not-exist");
    expect(res.status).toBe(404);
    const body = errorBodySchema.parse(await res.json());
    expect(body.code).toBe("NOT_FOUND");
    expect(body.requestId).toBe(res.headers.get("x-request-id"));
  });

  it("redirects an unknown page to /", async () => {
    const res = await call("/no-such-page", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!, "http://tala.test").pathname).toBe("/");
  });
});
