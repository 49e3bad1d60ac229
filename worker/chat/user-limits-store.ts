import type { AdmissionLog } from "./user-limits";

/** What the log needs of the room's store (room-store.ts): its SQLite (schema up to date) and `room_state`. */
export interface AdmissionLogHost {
  readonly sql: SqlStorage;
  state(key: string): string | null;
  setState(key: string, value: string): void;
}

/** `room_state` key: "1" once the room was told the account's e-mail is verified (it never goes back). */
export const EMAIL_VERIFIED_KEY = "email_verified";

/**
 * A signed-in user's admitted messages in their room's SQLite (table `message_admissions`, room
 * migration 0005): one row each, older ones dropped as new ones come. Synchronous, so the room's
 * check and count (user-limits.ts) happen with no other frame between them.
 */
export class RoomAdmissionLog implements AdmissionLog {
  constructor(private readonly host: AdmissionLogHost) {}

  countSince(since: number): number {
    return Number(this.host.sql.exec("SELECT count(*) AS n FROM message_admissions WHERE at >= ?", since).one().n);
  }

  record(at: number, forgetBefore: number): void {
    const { sql } = this.host;
    sql.exec("DELETE FROM message_admissions WHERE at < ?", forgetBefore);
    sql.exec("INSERT INTO message_admissions (at) VALUES (?)", at);
  }

  emailVerified(): boolean {
    return this.host.state(EMAIL_VERIFIED_KEY) === "1";
  }

  markEmailVerified(forgetBefore: number): void {
    this.host.setState(EMAIL_VERIFIED_KEY, "1");
    this.host.sql.exec("DELETE FROM message_admissions WHERE at < ?", forgetBefore);
  }
}
