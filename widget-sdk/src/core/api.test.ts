import { describe, expect, it } from "vitest";
import { widgetApiPaths, widgetRoomPath } from "../../../contract/schemas/widget";
import { widgetMessages } from "../../../contract/messages";
import { paths, reasonOf } from "./api";

describe("api paths", () => {
  it("match the contract's", () => {
    expect(paths.config).toBe(widgetApiPaths.config);
    expect(paths.sessions).toBe(widgetApiPaths.sessions);
    expect(paths.messages("a/b c")).toBe(widgetApiPaths.messages("a/b c"));
    expect(paths.feedback("a/b c", "m?1")).toBe(widgetApiPaths.feedback("a/b c", "m?1"));
    expect(paths.socket("a/b c")).toBe(widgetRoomPath("a/b c"));
  });

  it("reads refusal reasons from the server's messages and statuses", () => {
    expect(reasonOf(429, widgetMessages.sessionLimitReached)).toBe("session-limit");
    expect(reasonOf(429, widgetMessages.dailyLimitReached)).toBe("daily-limit");
    expect(reasonOf(429, widgetMessages.tooManyMessages)).toBe("rate-limited");
    expect(reasonOf(403, widgetMessages.unavailable)).toBe("unavailable");
    expect(reasonOf(500, null)).toBeUndefined();
  });
});
