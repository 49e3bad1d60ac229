import { issueCode } from "../codes/issue-code";
import type { ServiceContext } from "../context";
import { findUser } from "./find-user";

/**
 * Sends a verification code when an unverified account has this address. The caller answers the
 * same codeSent whatever happened here, so the endpoint does not reveal which accounts exist.
 */
export async function requestEmailVerification({ ctx, input }: { ctx: ServiceContext; input: { email: string } }): Promise<void> {
  const user = await findUser({ ctx, input: { email: input.email } });
  if (!user || user.emailVerifiedAt !== null) return;
  await issueCode({ ctx, input: { userId: user.id, email: user.email, purpose: "verify-email" } });
}
