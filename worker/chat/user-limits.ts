import { chatMessages, publicRoutes, userChatLimits, type RemainingMessages } from "../../contract";
import { windowEnd } from "../services/rate-limit-window";

/** What the limits need of the room's storage: `RoomAdmissionLog` (user-limits-store.ts), a memory twin in the tests. */
export interface AdmissionLog {
  /** Messages admitted at or after `since`. */
  countSince(since: number): number;
  /** Records one message admitted at `at`, and forgets those admitted before `forgetBefore`. */
  record(at: number, forgetBefore: number): void;
  /** Whether the room was told the account's e-mail is verified. */
  emailVerified(): boolean;
  /** Records that it is, and forgets the messages admitted before `forgetBefore` (the day's count goes). */
  markEmailVerified(forgetBefore: number): void;
}

export interface UserAdmission {
  /** The `error` of the refusal (message-error), or null: admitted and counted. */
  refusal: string | null;
  /** The unverified account's messages left today (remaining-messages); null when it has no daily count or the refusal is not the quota's. */
  remaining: RemainingMessages | null;
}

const { maxRunningReplies, perMinute, minuteMs, unverifiedPerDay, dayMs } = userChatLimits;

/** The start of the UTC day of `now`, as a guest's day (guest-quota.ts) starts. */
const dayStart = (now: number) => windowEnd(now, dayMs) - dayMs;

/**
 * A signed-in user's chat limits, in their own room: replies written at once, messages a minute,
 * and a daily quota while the account's e-mail is not verified. Synchronous over the room's own
 * SQLite, so a check and its count are one step and exact however many frames arrive at once:
 * with a limit of L, L pass. Every check runs before anything is counted, so a refused message
 * costs nothing. Whether the e-mail is verified: the socket's identity (read from D1 when it
 * opened) or the room's record (told when the user verifies, so sockets opened before see it too).
 * Imports nothing from `cloudflare:workers`.
 */
export class UserLimits {
  constructor(private readonly log: AdmissionLog) {}

  /**
   * Admits one turn (send-message or regenerate) once its chat is reserved: `running` counts the
   * room's replies in progress, this one included.
   */
  admit(input: { running: number; emailVerified: boolean; now: number }): UserAdmission {
    const { now } = input;
    if (input.running > maxRunningReplies) return { refusal: chatMessages.tooManyRunningReplies(maxRunningReplies), remaining: null };
    if (this.log.countSince(now - minuteMs + 1) >= perMinute) return { refusal: chatMessages.messageRateExceeded(perMinute), remaining: null };
    const unverified = this.unverified(input.emailVerified, now);
    const usedToday = unverified ? this.log.countSince(dayStart(now)) : 0;
    if (unverified && usedToday >= unverifiedPerDay) {
      return { refusal: chatMessages.unverifiedQuotaExhausted(publicRoutes.verifyEmail), remaining: left(0) };
    }
    this.log.record(now, unverified ? Math.min(dayStart(now), now - minuteMs) : now - minuteMs);
    return { refusal: null, remaining: unverified ? left(unverifiedPerDay - usedToday - 1) : null };
  }

  /** The unverified account's messages left today, counting nothing; null once the e-mail is verified. */
  remaining(input: { emailVerified: boolean; now: number }): RemainingMessages | null {
    if (!this.unverified(input.emailVerified, input.now)) return null;
    return left(Math.max(0, unverifiedPerDay - this.log.countSince(dayStart(input.now))));
  }

  /** The account's e-mail was verified: its daily quota is lifted for every socket, open ones included. */
  emailVerified(now: number): void {
    if (!this.log.emailVerified()) this.log.markEmailVerified(now - minuteMs);
  }

  private unverified(identityVerified: boolean, now: number): boolean {
    if (this.log.emailVerified()) return false;
    // A socket opened after the verification: the room learns it here if it was not told.
    if (identityVerified) this.emailVerified(now);
    return !identityVerified;
  }
}

const left = (remaining: number): RemainingMessages => ({ remaining, limit: unverifiedPerDay, scope: "unverified" });
