import { describe, expect, it } from "vitest";
import { widgetMessages } from "../../../contract";
import { attachmentsRefusal, ipRefusal, toMessageAdmission } from "./admit-visitor-message";

const now = 1_000_000;
const ok = (remaining: number, resetAt = now + 5_000) => ({ allowed: true, remaining, resetAt });
const no = (remaining: number, resetAt = now + 5_000) => ({ allowed: false, remaining, resetAt });

describe("visitor message admission, in the widget's words", () => {
  it("admits with what is left in the session and the day", () => {
    expect(toMessageAdmission({ allowed: true, session: ok(3), daily: ok(17) }, now)).toEqual({ ok: true, remaining: { session: 3, daily: 17 } });
  });

  it("names the counter that refused, with Retry-After where a window ends", () => {
    expect(toMessageAdmission({ allowed: false, refusedBy: "session", session: no(0), daily: null }, now)).toMatchObject({
      ok: false,
      error: widgetMessages.sessionLimitReached,
      reason: "session-limit",
      remaining: { session: 0, daily: 0 },
    });
    expect(toMessageAdmission({ allowed: false, refusedBy: "daily", session: ok(2), daily: no(0) }, now)).toMatchObject({
      error: widgetMessages.dailyLimitReached,
      reason: "daily-limit",
      retryAfter: 5,
      remaining: { session: 2, daily: 0 },
    });
    expect(toMessageAdmission({ allowed: false, refusedBy: "network", session: ok(2), daily: null, network: no(0) }, now)).toMatchObject({
      error: widgetMessages.networkDailyShareReached,
      reason: "rate-limited",
      retryAfter: 5,
    });
  });

  it("refuses attachments the owner does not allow, and a throttled network", () => {
    expect(attachmentsRefusal(1, false)).toMatchObject({ error: widgetMessages.attachmentsNotAllowed, code: "VALIDATION_ERROR" });
    expect(attachmentsRefusal(0, false)).toBeNull();
    expect(attachmentsRefusal(2, true)).toBeNull();
    expect(ipRefusal(no(0), now)).toMatchObject({ error: widgetMessages.tooManyMessages, code: "RATE_LIMITED", retryAfter: 5 });
    expect(ipRefusal(ok(4), now)).toBeNull();
  });
});
