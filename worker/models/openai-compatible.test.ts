import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockModel, type MockModel } from "../../tests/mock-model/server.mjs";
import { OpenAiCompatibleProvider } from "./openai-compatible";
import { ModelError } from "./types";

let mock: MockModel;
beforeAll(async () => {
  mock = await startMockModel();
});
afterAll(() => mock.close());

const provider = (timeouts = { firstTokenMs: 2000, idleMs: 300 }) =>
  new OpenAiCompatibleProvider({ baseUrl: mock.url, apiKey: "sk-test", model: "mock-small", timeouts });

async function collect(content: string, p = provider()) {
  const deltas: string[] = [];
  try {
    for await (const d of p.stream({ messages: [{ role: "user", content }] })) deltas.push(d);
    return { deltas };
  } catch (error) {
    return { deltas, error: error as ModelError };
  }
}

describe("OpenAiCompatibleProvider", () => {
  it("streams deltas in order and sends the key and model", async () => {
    const { deltas, error } = await collect("hi [[delay:1]]");
    expect(error).toBeUndefined();
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toContain("Mock reply to: hi.");
    expect(mock.requests.at(-1)?.headers.authorization).toBe("Bearer sk-test");
    expect(mock.requests.at(-1)?.body.model).toBe("mock-small");
  });

  it("reports an HTTP error with its status", async () => {
    const { error } = await collect("[[fail:502]]");
    expect(error).toBeInstanceOf(ModelError);
    expect(error?.kind).toBe("http");
    expect(error?.status).toBe(502);
  });

  it("treats a cut connection as a broken stream, keeping what arrived", async () => {
    const { deltas, error } = await collect("[[break:3]] [[delay:1]]");
    expect(error?.kind).toBe("broken-stream");
    expect(deltas.length).toBe(3);
  });

  it("lets an answer stream past the first-token limit while tokens keep coming", async () => {
    // 20 tokens 20 ms apart: ~400 ms in all, twice the first-token limit, never idle for long.
    const { deltas, error } = await collect("[[tokens:20]] [[delay:20]]", provider({ firstTokenMs: 200, idleMs: 300 }));
    expect(error).toBeUndefined();
    expect(deltas.length).toBe(20);
  });

  it("times out a stalled stream", async () => {
    const { deltas, error } = await collect("[[stall:2]] [[delay:1]]");
    expect(error?.kind).toBe("timeout");
    expect(deltas.length).toBe(2);
  });

  it("stops when the caller aborts", async () => {
    const controller = new AbortController();
    const deltas: string[] = [];
    let error: ModelError | undefined;
    try {
      for await (const d of provider().stream({ messages: [{ role: "user", content: "[[tokens:50]] [[delay:20]]" }], signal: controller.signal })) {
        deltas.push(d);
        if (deltas.length === 2) controller.abort();
      }
    } catch (e) {
      error = e as ModelError;
    }
    expect(error?.kind).toBe("aborted");
    expect(deltas.length).toBe(2);
  });

  it("lists the endpoint's models", async () => {
    expect(await provider().listModels()).toEqual(["mock-small", "mock-large"]);
  });

  it("reports an unreachable endpoint as a network error", async () => {
    const p = new OpenAiCompatibleProvider({ baseUrl: "http://127.0.0.1:9/v1", model: "x" });
    const { error } = await collect("hi", p);
    expect(error?.kind).toBe("network");
  });
});
