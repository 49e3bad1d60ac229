/** /reset-password: the code from the e-mail and a new password (spec section 4). */
import type { FormEvent } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { accountMessages, auth, publicRoutes, resetPasswordConfirmBody } from "../../../../contract";
import { AuthLayout } from "../../components/layout/auth-layout";
import { FormAlert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { TextField } from "../../components/ui/field";
import { accountApi } from "../../lib/account";
import { formValues, useFormAction } from "../../lib/use-form-action";
import { toast } from "../../stores/toast";

export default function ResetPasswordPage() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const { submitting, error, fields, run, validate } = useFormAction();
  const email = new URLSearchParams(search).get("email") ?? "";

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = validate(resetPasswordConfirmBody, formValues(form), form);
    if (!body) return;
    void run(
      async () => {
        const res = await accountApi.confirmPasswordReset(body.email, body.code, body.newPassword);
        toast({ description: res.message, variant: "success" });
        navigate(`${publicRoutes.login}?email=${encodeURIComponent(body.email)}`, { replace: true });
      },
      accountMessages.resetPasswordFailed,
      { keepBusy: true, form },
    );
  };

  return (
    <AuthLayout
      title="Choose a new password"
      description={`Enter the ${auth.codeLength}-digit code we emailed you and your new password.`}
      footer={
        <>
          No code?{" "}
          <Link href={`${publicRoutes.forgotPassword}${email ? `?email=${encodeURIComponent(email)}` : ""}`} className="font-medium text-accent-text hover:underline">
            Send a new one
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Reset password">
        <FormAlert message={error} />
        <TextField label="Email" name="email" type="email" autoComplete="email" required defaultValue={email} error={fields.email} />
        <TextField
          label="Verification code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={auth.codeLength}
          required
          error={fields.code}
          className="[&_input]:font-mono [&_input]:tracking-[0.3em]"
        />
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
        <Button type="submit" size="lg" className="mt-1 w-full" busy={submitting}>
          Reset password
        </Button>
      </form>
    </AuthLayout>
  );
}
