/** Settings → Password: current and new password; the server answers with a fresh token to keep. */
import type { FormEvent } from "react";
import { Link } from "wouter";
import { accountMessages, appMessages, auth, changePasswordBody, publicRoutes, type User } from "../../../../contract";
import { accountApi } from "../../lib/account";
import { formValues, useFormAction } from "../../lib/use-form-action";
import { useAuth } from "../../stores/auth";
import { toast } from "../../stores/toast";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { LockIcon } from "../ui/icons";
import { SettingsSection } from "./section";

export function PasswordSection({ user }: { user: User }) {
  const setUser = useAuth((s) => s.setUser);
  const replaceToken = useAuth((s) => s.replaceToken);
  const { submitting, error, fields, run, validate } = useFormAction();

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = validate(changePasswordBody, formValues(form), form);
    if (!body) return;
    void run(
      async () => {
        const res = await accountApi.changePassword(body.currentPassword, body.newPassword);
        // Other sessions were revoked, ours included: keep the fresh token or the next call fails.
        replaceToken(res.token);
        setUser(res.user);
        form.reset();
        toast({ description: res.message, variant: "success" });
      },
      accountMessages.changePasswordFailed,
      { form },
    );
  };

  return (
    <SettingsSection title="Password" description="Changing it signs you out everywhere else." icon={<LockIcon size={18} />}>
      {user.hasPassword ? (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Change password">
          <FormAlert message={error} />
          {/* Lets password managers pair the new password with the account. */}
          <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <TextField label="Current password" name="currentPassword" type="password" autoComplete="current-password" required error={fields.currentPassword} />
          <TextField
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            required
            minLength={auth.passwordMinLength}
            error={fields.newPassword}
            hint={`At least ${auth.passwordMinLength} characters.`}
          />
          <div className="flex justify-end">
            <Button type="submit" busy={submitting}>
              Change password
            </Button>
          </div>
        </form>
      ) : (
        <p className="text-sm text-muted">
          {appMessages.federatedPasswordNote}{" "}
          <Link href={`${publicRoutes.forgotPassword}?email=${encodeURIComponent(user.email)}`} className="font-medium text-accent-text hover:underline">
            Forgot password
          </Link>
        </p>
      )}
    </SettingsSection>
  );
}
