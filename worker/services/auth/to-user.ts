import type { User } from "../../../contract";
import type { users } from "../../db/schema";

export type UserRow = typeof users.$inferSelect;

/** The user as the API shows it (contract `userSchema`): never the hash, uid or settings. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    birthDate: row.birthDate,
    photoURL: row.photoUrl,
    isEmailVerified: row.emailVerifiedAt !== null,
    hasPassword: row.passwordHash !== null,
    createdAt: row.createdAt,
  };
}
