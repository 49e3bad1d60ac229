import { serverMessages, type AuthResponse } from "../../../contract";
import { burnPasswordCheck } from "../../crypto/password";
import { unauthorized } from "../../http/errors";
import type { ServiceContext } from "../context";
import { checkPassword } from "./check-password";
import { findUser } from "./find-user";
import { issueToken } from "./issue-token";
import { toUser } from "./to-user";

/**
 * Signs in with e-mail and password. An unknown address and a wrong password answer the same
 * invalidCredentials, and both run the KDF once, so neither the message nor the timing tells
 * which accounts exist. A Google-only account (no password) is told how to sign in instead.
 */
export async function loginUser({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { email: string; password: string; userAgent?: string | null };
}): Promise<AuthResponse> {
  const user = await findUser({ ctx, input: { email: input.email } });
  if (!user) {
    await burnPasswordCheck(input.password);
    throw unauthorized(serverMessages.invalidCredentials);
  }
  const ok = await checkPassword({ ctx, input: { user, password: input.password } });
  if (!user.passwordHash) throw unauthorized(serverMessages.federatedOnlyAccount);
  if (!ok) throw unauthorized(serverMessages.invalidCredentials);
  const token = await issueToken({ ctx, input: { userId: user.id, userAgent: input.userAgent } });
  return { token, user: toUser(user) };
}
