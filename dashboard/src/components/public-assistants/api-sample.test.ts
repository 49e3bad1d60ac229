import { describe, expect, it } from "vitest";
import { assistantSecretKey, publicAssistantApiKey } from "../../../../contract";
import { openAiSample, secretKeyVariable } from "./api-sample";

describe("openAiSample", () => {
  it("calls /api/v1/chat/completions on the origin with a secret-key placeholder", () => {
    const sample = openAiSample("https://tala.example");
    expect(sample).toContain("curl https://tala.example/api/v1/chat/completions");
    expect(sample).toContain(`Authorization: Bearer $${secretKeyVariable}`);
    expect(sample).toContain(assistantSecretKey.prefix);
    expect(sample).not.toContain(publicAssistantApiKey.prefix);
    const body = /-d '(.*)'$/m.exec(sample)?.[1];
    expect(JSON.parse(body!)).toMatchObject({ messages: [{ role: "user", content: "Hello" }] });
  });
});
