import { z } from "zod";
import { serverMessages, type AuthResponse, type registerBody } from "../../../contract";
import { hashPassword } from "../../crypto/password";
import { isUniqueViolation, writeBatch } from "../../db/client";
import { authTokens, users } from "../../db/schema";
import { AppError } from "../../http/errors";
import { issueCode } from "../codes/issue-code";
import type { ServiceContext } from "../context";
import { findUser } from "./find-user";
import { prepareToken } from "./issue-token";
import { toUser } from "./to-user";

export type RegisterUserInput = z.output<typeof registerBody> & { userAgent?: string | null };

export const emailTaken = () => new AppError("CONFLICT", serverMessages.emailTaken, { fields: { email: serverMessages.emailTaken } });

/**
 * Creates an account with a password, signs it in, and e-mails a verification code.
 * The user and the first token are written in one batch. A failed verification e-mail does not
 * fail the registration (the account exists and the user can ask for a new code); it is logged.
 */
export async function registerUser({ ctx, input }: { ctx: ServiceContext; input: RegisterUserInput }): Promise<AuthResponse> {
  if (await findUser({ ctx, input: { email: input.email } })) throw emailTaken();
  const now = Date.now();
  const row = {
    id: crypto.randomUUID(),
    email: input.email,
    passwordHash: await hashPassword(input.password),
    firstName: input.firstName,
    lastName: input.lastName,
    phone: input.phone,
    birthDate: input.birthDate,
    createdAt: now,
    updatedAt: now,
  } satisfies typeof users.$inferInsert;
  const { token, row: tokenRow } = await prepareToken({ userId: row.id, userAgent: input.userAgent });
  try {
    // Two simultaneous registrations of one address both pass the lookup; the unique index decides.
    await writeBatch(ctx.db, [ctx.db.insert(users).values(row), ctx.db.insert(authTokens).values(tokenRow)]);
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  try {
    await issueCode({ ctx, input: { userId: row.id, email: row.email, purpose: "verify-email" } });
  } catch (error) {
    console.error(JSON.stringify({ event: "verification-email-failed", userId: row.id, error: String(error) }));
  }
  return { token, user: toUser({ ...row, photoUrl: null, firebaseUid: null, emailVerifiedAt: null, settings: "{}" }) };
}
