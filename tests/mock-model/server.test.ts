import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockModel, type MockModel } from "./server.mjs";

let mock: MockModel;
beforeAll(async () => {
  mock = await startMockModel();
});
afterAll(() => mock.close());

const chat = (content: string, stream = true) =>
  fetch(`${mock.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "mock-small", stream, messages: [{ role: "system", content: "be brief" }, { role: "user", content }] }),
  });

describe("mock model server", () => {
  it("streams tokens and ends with [DONE]", async () => {
    const text = await (await chat("hello [[delay:0]]")).text();
    const deltas = text.split("\n\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6)).choices[0].delta.content ?? "");
    expect(deltas.join("")).toContain("Mock reply to: hello.");
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });

  it("echoes what it received, system prompt included", async () => {
    const res = await chat("[[echo]]", false);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(JSON.parse(body.choices[0]!.message.content)[0]).toEqual({ role: "system", content: "be brief" });
    expect(mock.requests.at(-1)?.body.messages?.[0]?.content).toBe("be brief");
  });

  it("fails on cue with the given status", async () => {
    const res = await chat("[[fail:503]]");
    expect(res.status).toBe(503);
  });

  it("numbers the takes of one text, and fails only the first on failfirst", async () => {
    const tag = crypto.randomUUID();
    const streamed = async (content: string) => {
      const res = await chat(content);
      if (res.status !== 200) return res.status;
      const text = await res.text();
      return text.split("\n\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6)).choices[0].delta.content ?? "").join("");
    };
    expect(await streamed(`again ${tag} [[take]] [[delay:0]]`)).toContain(`again ${tag} (take 1).`);
    expect(await streamed(`again ${tag} [[take]] [[delay:0]]`)).toContain(`again ${tag} (take 2).`);
    expect(await streamed(`flaky ${tag} [[failfirst:500]] [[delay:0]]`)).toBe(500);
    expect(await streamed(`flaky ${tag} [[failfirst:500]] [[delay:0]]`)).toContain(`Mock reply to: flaky ${tag}.`);
  });

  it("breaks the stream on cue without [DONE]", async () => {
    const res = await chat("[[break:2]] [[delay:0]]");
    const text = await res.text().catch(() => "");
    expect(text).not.toContain("[DONE]");
  });
});
