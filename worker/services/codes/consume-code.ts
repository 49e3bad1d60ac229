import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { auth, serverMessages, type EmailCodePurpose } from "../../../contract";
import { timingSafeEqualText } from "../../crypto/encoding";
import { verificationCodes } from "../../db/schema";
import { invalid } from "../../http/errors";
import type { ServiceContext } from "../context";
import { codeHash } from "./code-hash";

export interface ConsumeCodeInput {
  email: string;
  purpose: EmailCodePurpose;
  code: string;
  /** When set, only a code issued for this account counts (e-mail change). */
  userId?: string;
}

const invalidCode = () => invalid(serverMessages.invalidCode, { code: serverMessages.invalidCode });
const attemptsExceeded = () => invalid(serverMessages.codeAttemptsExceeded, { code: serverMessages.codeAttemptsExceeded });

/**
 * Checks a code and, when right, marks it used; returns the account it was issued for.
 * Only the newest unused code of the address and purpose is considered. Both outcomes are
 * conditional writes, so they hold under concurrency: a wrong guess counts only while fewer than
 * `codeMaxAttempts` were made, and of two simultaneous right answers only one consumes the code.
 * Wrong, expired, used or unknown codes all answer the same invalidCode (400).
 */
export async function consumeCode({ ctx, input }: { ctx: ServiceContext; input: ConsumeCodeInput }): Promise<{ userId: string }> {
  const now = Date.now();
  const [row] = await ctx.db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.email, input.email),
        eq(verificationCodes.purpose, input.purpose),
        isNull(verificationCodes.consumedAt),
        input.userId ? eq(verificationCodes.userId, input.userId) : undefined,
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  if (!row || !row.userId || row.expiresAt <= now) throw invalidCode();
  if (row.attempts >= auth.codeMaxAttempts) throw attemptsExceeded();

  const usable = and(
    eq(verificationCodes.id, row.id),
    isNull(verificationCodes.consumedAt),
    lt(verificationCodes.attempts, auth.codeMaxAttempts),
  );
  if (!timingSafeEqualText(await codeHash(row.id, input.code), row.codeHash)) {
    const [counted] = await ctx.db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(usable)
      .returning({ attempts: verificationCodes.attempts });
    // The guess that uses up the last attempt says so, rather than leaving the user to find out.
    if (!counted || counted.attempts >= auth.codeMaxAttempts) throw attemptsExceeded();
    throw invalidCode();
  }
  const [consumed] = await ctx.db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(usable, gt(verificationCodes.expiresAt, now)))
    .returning({ id: verificationCodes.id });
  if (!consumed) throw invalidCode();
  return { userId: row.userId };
}
