import { describe, expect, it } from "vitest";
import { chatMessages, publicRoutes, userChatLimits } from "../../contract";
import { UserLimits, type AdmissionLog } from "./user-limits";

const { maxRunningReplies, perMinute, minuteMs, unverifiedPerDay, dayMs } = userChatLimits;

function memoryLog(): AdmissionLog & { times: number[]; verified: boolean } {
  const log = {
    times: [] as number[],
    verified: false,
    countSince: (since: number) => log.times.filter((t) => t >= since).length,
    record: (at: number, forgetBefore: number) => {
      log.times = [...log.times.filter((t) => t >= forgetBefore), at];
    },
    emailVerified: () => log.verified,
    markEmailVerified: (forgetBefore: number) => {
      log.verified = true;
      log.times = log.times.filter((t) => t >= forgetBefore);
    },
  };
  return log;
}

/** Noon of a UTC day, so a test's minutes stay inside one day. */
const noon = 20_000 * dayMs + dayMs / 2;

describe("UserLimits", () => {
  it("refuses a turn past the replies running at once, counting nothing", () => {
    const log = memoryLog();
    const limits = new UserLimits(log);
    expect(limits.admit({ running: maxRunningReplies, emailVerified: true, now: noon }).refusal).toBeNull();
    const refused = limits.admit({ running: maxRunningReplies + 1, emailVerified: false, now: noon });
    expect(refused).toEqual({ refusal: chatMessages.tooManyRunningReplies(maxRunningReplies), remaining: null });
    expect(log.times).toHaveLength(1);
  });

  it("admits perMinute messages in any minute, then refuses until the oldest is a minute old", () => {
    const log = memoryLog();
    const limits = new UserLimits(log);
    for (let i = 0; i < perMinute; i++) expect(limits.admit({ running: 1, emailVerified: true, now: noon + i }).refusal).toBeNull();
    const refused = limits.admit({ running: 1, emailVerified: true, now: noon + minuteMs - 1 });
    expect(refused.refusal).toBe(chatMessages.messageRateExceeded(perMinute));
    expect(log.times).toHaveLength(perMinute);
    expect(limits.admit({ running: 1, emailVerified: true, now: noon + minuteMs }).refusal).toBeNull();
  });

  it("gives an unverified account unverifiedPerDay messages a UTC day, with the count left", () => {
    const log = memoryLog();
    const limits = new UserLimits(log);
    expect(limits.remaining({ emailVerified: false, now: noon })).toEqual({ remaining: unverifiedPerDay, limit: unverifiedPerDay, scope: "unverified" });
    for (let i = 0; i < unverifiedPerDay; i++) {
      const admitted = limits.admit({ running: 1, emailVerified: false, now: noon + i * minuteMs });
      expect(admitted).toEqual({ refusal: null, remaining: { remaining: unverifiedPerDay - i - 1, limit: unverifiedPerDay, scope: "unverified" } });
    }
    const refused = limits.admit({ running: 1, emailVerified: false, now: noon + unverifiedPerDay * minuteMs });
    expect(refused.refusal).toBe(chatMessages.unverifiedQuotaExhausted(publicRoutes.verifyEmail));
    expect(refused.refusal).toContain(publicRoutes.verifyEmail);
    expect(refused.remaining).toEqual({ remaining: 0, limit: unverifiedPerDay, scope: "unverified" });
    expect(log.times).toHaveLength(unverifiedPerDay);
    // The next UTC day starts the count over, and the old day's rows go.
    const tomorrow = noon + dayMs / 2;
    expect(limits.admit({ running: 1, emailVerified: false, now: tomorrow }).remaining?.remaining).toBe(unverifiedPerDay - 1);
    expect(log.times).toEqual([tomorrow]);
  });

  it("has no daily count for a verified account, and keeps only the last minute", () => {
    const log = memoryLog();
    const limits = new UserLimits(log);
    for (let i = 0; i < unverifiedPerDay + 5; i++) {
      expect(limits.admit({ running: 1, emailVerified: true, now: noon + i * 2 * minuteMs })).toEqual({ refusal: null, remaining: null });
    }
    expect(log.times).toHaveLength(1);
    expect(limits.remaining({ emailVerified: true, now: noon })).toBeNull();
  });

  it("lifts the quota when told the e-mail is verified, for sockets opened before too", () => {
    const log = memoryLog();
    const limits = new UserLimits(log);
    for (let i = 0; i < unverifiedPerDay; i++) limits.admit({ running: 1, emailVerified: false, now: noon + i * minuteMs });
    const later = noon + unverifiedPerDay * minuteMs;
    expect(limits.admit({ running: 1, emailVerified: false, now: later }).refusal).not.toBeNull();
    limits.emailVerified(later);
    expect(log.times).toHaveLength(1); // the last minute's, for the rate
    expect(limits.remaining({ emailVerified: false, now: later })).toBeNull();
    expect(limits.admit({ running: 1, emailVerified: false, now: later })).toEqual({ refusal: null, remaining: null });
  });

  it("learns the verification from a socket opened after it", () => {
    const log = memoryLog();
    const limits = new UserLimits(log);
    limits.admit({ running: 1, emailVerified: false, now: noon });
    expect(limits.admit({ running: 1, emailVerified: true, now: noon + 1 }).remaining).toBeNull();
    expect(log.verified).toBe(true);
    // A socket opened before it, still carrying the old identity, has no daily count either.
    expect(limits.remaining({ emailVerified: false, now: noon + 2 })).toBeNull();
  });
});
