import { describe, expect, it } from "vitest";
import { webhookLimits as L } from "../../contract";
import { eventBody } from "./hub-webhooks";

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe("webhook event bodies", () => {
  it("a body under the limit is the event as is", () => {
    const event = { id: "evt_1", type: "feedback.created", createdAt: 1, assistantId: "a", data: { sessionId: "s", rating: "up" } };
    expect(JSON.parse(eventBody(event))).toEqual(event);
  });

  it("a body over the limit has its longest texts cut, says so, and fits", () => {
    const long = "é".repeat(L.maxBodyBytes);
    const event = {
      id: "evt_2",
      type: "message.answered",
      createdAt: 1,
      assistantId: "a",
      data: { sessionId: "s", question: { id: "q", content: "Short question?", createdAt: 1 }, answer: { id: "r", content: long, createdAt: 2, sources: [] } },
    };
    const body = eventBody(event);
    expect(bytes(body)).toBeLessThanOrEqual(L.maxBodyBytes);
    const parsed = JSON.parse(body);
    expect(parsed.data.truncated).toBe(true);
    expect(parsed.data.question.content).toBe("Short question?");
    expect(parsed.data.answer.content.endsWith("…")).toBe(true);
    expect(parsed.data.answer.content.length).toBeGreaterThan(1000);
    expect(parsed.id).toBe("evt_2");
  });

  it("never splits a surrogate pair", () => {
    const emoji = "😀".repeat(40_000);
    const parsed = JSON.parse(eventBody({ id: "e", type: "lead.created", createdAt: 1, assistantId: "a", data: { fields: { text1: emoji } } }, 2_000));
    const text: string = parsed.data.fields.text1;
    expect(text.endsWith("…")).toBe(true);
    expect(/[\ud800-\udbff]$/.test(text.slice(0, -1))).toBe(false);
  });
});
