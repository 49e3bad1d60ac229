import { serverMessages } from "../../../contract";
import { invalid, notFound } from "../../http/errors";
import { issueCode } from "../codes/issue-code";
import type { ServiceContext } from "../context";
import { checkPassword } from "./check-password";
import { findUser } from "./find-user";
import { emailTaken } from "./register-user";

/**
 * Starts an e-mail change: re-checks the password (a stolen session alone cannot take over the
 * account's address), refuses an address another account has, and sends the code to the NEW
 * address, proving the user reads it. A wrong password is a 400 on the field, not a 401, so the
 * client does not treat it as a lost session.
 */
export async function requestEmailChange({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; newEmail: string; password: string };
}): Promise<void> {
  const user = await findUser({ ctx, input: { id: input.userId } });
  if (!user) throw notFound();
  if (!(await checkPassword({ ctx, input: { user, password: input.password } }))) {
    throw invalid(serverMessages.wrongPassword, { password: serverMessages.wrongPassword });
  }
  if (input.newEmail === user.email) throw invalid(serverMessages.sameEmail, { newEmail: serverMessages.sameEmail });
  if (await findUser({ ctx, input: { email: input.newEmail } })) throw emailTaken();
  await issueCode({ ctx, input: { userId: user.id, email: input.newEmail, purpose: "change-email" } });
}
