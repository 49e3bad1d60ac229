import { afterEach, describe, expect, it, vi } from "vitest";
import { widgetApiPaths, widgetRoomPath } from "../../../contract/schemas/widget";
import { budgetMessages } from "../../../contract/messages";
import { call, configPath, eventsPath, failureOf, feedbackPath, handoffPath, messagesPath, reasonOf, sessionPath, sessionsPath, socketPath } from "./api";

describe("api paths", () => {
  it("match the contract's", () => {
    expect(configPath).toBe(widgetApiPaths.config);
    expect(sessionsPath).toBe(widgetApiPaths.sessions);
    expect(messagesPath("a/b c")).toBe(widgetApiPaths.messages("a/b c"));
    expect(feedbackPath("a/b c", "m?1")).toBe(widgetApiPaths.feedback("a/b c", "m?1"));
    expect(socketPath("a/b c")).toBe(widgetRoomPath("a/b c"));
    expect(sessionPath("a/b c")).toBe(widgetApiPaths.session("a/b c"));
    expect(handoffPath("a/b c")).toBe(widgetApiPaths.handoff("a/b c"));
    expect(eventsPath("a/b c")).toBe(widgetApiPaths.events("a/b c"));
  });

  it("reads a refusal's reason from its status when the body names none", () => {
    expect(reasonOf(429)).toBe("rate-limited");
    expect(reasonOf(403)).toBe("unavailable");
    expect(reasonOf(404)).toBe("session-not-found");
    expect(reasonOf(500)).toBeUndefined();
  });
});

describe("a refusal's reason in the error body", () => {
  afterEach(() => vi.unstubAllGlobals());
  const refusal = () => new Response(JSON.stringify({ error: budgetMessages.budgetReached, code: "RATE_LIMITED", reason: "budget-reached" }), { status: 429 });

  it("wins over the reason guessed from the status (a used-up budget is final, not a moment's throttle)", async () => {
    expect((await failureOf(refusal())).reason).toBe("budget-reached");
    vi.stubGlobal("fetch", vi.fn(async () => refusal()));
    expect(await call("https://tala.example", "tala_pk_x", messagesPath("s1"), {})).toMatchObject({ ok: false, status: 429, reason: "budget-reached" });
  });

  it("sends a verified visitor's token with the call", async () => {
    const fetch = vi.fn(async () => new Response("{}", { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    await call("https://tala.example", "tala_pk_x", feedbackPath("s1", "a1"), { rating: "up" }, "a.b.c");
    expect((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].headers).toMatchObject({ "X-Visitor-Token": "a.b.c" });
  });
});
