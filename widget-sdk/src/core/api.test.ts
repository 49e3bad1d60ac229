import { describe, expect, it } from "vitest";
import { widgetApiPaths, widgetRoomPath } from "../../../contract/schemas/widget";
import { widgetMessages } from "../../../contract/messages";
import { configPath, feedbackPath, messagesPath, reasonOf, sessionsPath, socketPath } from "./api";

describe("api paths", () => {
  it("match the contract's", () => {
    expect(configPath).toBe(widgetApiPaths.config);
    expect(sessionsPath).toBe(widgetApiPaths.sessions);
    expect(messagesPath("a/b c")).toBe(widgetApiPaths.messages("a/b c"));
    expect(feedbackPath("a/b c", "m?1")).toBe(widgetApiPaths.feedback("a/b c", "m?1"));
    expect(socketPath("a/b c")).toBe(widgetRoomPath("a/b c"));
  });

  it("reads refusal reasons from the server's messages and statuses", () => {
    expect(reasonOf(429, widgetMessages.sessionLimitReached)).toBe("session-limit");
    expect(reasonOf(429, widgetMessages.dailyLimitReached)).toBe("daily-limit");
    expect(reasonOf(429, widgetMessages.tooManyMessages)).toBe("rate-limited");
    expect(reasonOf(403, widgetMessages.unavailable)).toBe("unavailable");
    expect(reasonOf(500, null)).toBeUndefined();
  });
});
