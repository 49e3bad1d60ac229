import { describe, expect, it } from "vitest";
import { call, callWithEnv } from "./helpers";

// POST /api/dev/model-floor: bench/chat-overhead.mjs's model floor, the mock's stream through the
// Worker with no turn. What it does, not how fast: figures live in bench/results.
describe("POST /api/dev/model-floor", () => {
  it("streams the model's deltas as server-sent events, each as it arrives", async () => {
    const res = await call("/api/dev/model-floor", { json: { content: "hello [[tokens:3]]" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const deltas = (await res.text())
      .split("\n\n")
      .filter((block) => block.startsWith("data: "))
      .map((block) => JSON.parse(block.slice("data: ".length)) as string);
    expect(deltas).toHaveLength(3);
    expect(deltas.join("")).toBe("Mock reply to: ");
  });

  it("says a model failure in the stream, and answers 404 outside local mode or on a bad body", async () => {
    const failed = await (await call("/api/dev/model-floor", { json: { content: "[[fail:500]]" } })).text();
    expect(failed).toMatch(/^event: error\n/);
    expect((await call("/api/dev/model-floor", { json: { content: "" } })).status).toBe(400);
    expect((await callWithEnv({ ENVIRONMENT: "production" }, "/api/dev/model-floor", { json: { content: "hi" } })).status).toBe(404);
  });

  it("does not start the model for a page of another site (a CORS-simple text/plain POST)", async () => {
    const res = await call("/api/dev/model-floor", {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      body: JSON.stringify({ content: "hello [[tokens:2]]" }),
    });
    expect(res.status).toBe(404);
  });
});

describe("/api/dev/model-floor bounds", () => {
  it("404 outside local mode whatever the body; bounded content; no URL taken from the body", async () => {
    expect((await callWithEnv({ ENVIRONMENT: "production" }, "/api/dev/model-floor", { json: { content: "x".repeat(5000) } })).status).toBe(404);
    expect((await callWithEnv({ ENVIRONMENT: undefined }, "/api/dev/model-floor", { json: { content: "hi" } })).status).toBe(404);
    expect((await call("/api/dev/model-floor", { json: { content: "x".repeat(2001) } })).status).toBe(400);
    const res = await call("/api/dev/model-floor", { json: { content: "hello [[tokens:2]]", url: "http://169.254.169.254/", baseUrl: "http://evil.example" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Mock ");
  });
});
