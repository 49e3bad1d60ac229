import { and, eq, isNull, lte, ne } from "drizzle-orm";
import { auth, type EmailCodePurpose } from "../../../contract";
import { generateNumericCode } from "../../crypto/random";
import { verificationCodes } from "../../db/schema";
import type { ServiceContext } from "../context";
import { sendCodeEmail } from "../email/send-code-email";
import { codeHash } from "./code-hash";

export interface IssueCodeInput {
  /** The account the code acts on. */
  userId: string;
  /** Where the code goes (for an e-mail change, the new address). */
  email: string;
  purpose: EmailCodePurpose;
}

/**
 * Creates a one-time code, e-mails it, then retires earlier unused codes of the same purpose and
 * address. Retiring only after a successful send means a failed send (503) leaves the previous
 * code usable and removes the new row, so nothing half-written stays behind.
 */
export async function issueCode({ ctx, input }: { ctx: ServiceContext; input: IssueCodeInput }): Promise<void> {
  const id = crypto.randomUUID();
  const code = generateNumericCode(auth.codeLength);
  const now = Date.now();
  await ctx.db.insert(verificationCodes).values({
    id,
    userId: input.userId,
    email: input.email,
    purpose: input.purpose,
    codeHash: await codeHash(id, code),
    createdAt: now,
    expiresAt: now + auth.codeTtlMs,
  });
  try {
    await sendCodeEmail({ ctx, input: { to: input.email, purpose: input.purpose, code } });
  } catch (error) {
    await ctx.db.delete(verificationCodes).where(eq(verificationCodes.id, id));
    throw error;
  }
  // `createdAt <= now` spares a code a concurrent request created after this one.
  await ctx.db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(
      and(
        eq(verificationCodes.email, input.email),
        eq(verificationCodes.purpose, input.purpose),
        isNull(verificationCodes.consumedAt),
        ne(verificationCodes.id, id),
        lte(verificationCodes.createdAt, now),
      ),
    );
}
