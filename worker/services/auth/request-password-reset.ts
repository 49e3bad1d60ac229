import { issueCode } from "../codes/issue-code";
import type { ServiceContext } from "../context";
import { findUser } from "./find-user";

/**
 * Sends a reset code when an account has this address (Google-only accounts included: a reset is
 * how they set a first password). The caller's answer never says whether one was sent.
 */
export async function requestPasswordReset({ ctx, input }: { ctx: ServiceContext; input: { email: string } }): Promise<void> {
  const user = await findUser({ ctx, input: { email: input.email } });
  if (!user) return;
  await issueCode({ ctx, input: { userId: user.id, email: user.email, purpose: "reset-password" } });
}
