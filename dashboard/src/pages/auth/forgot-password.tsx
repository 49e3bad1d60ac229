/** /forgot-password: request a reset code by e-mail (spec section 4). */
import type { FormEvent } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { accountMessages, emailOnlyBody, publicRoutes } from "../../../../contract";
import { AuthLayout } from "../../components/layout/auth-layout";
import { FormAlert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { TextField } from "../../components/ui/field";
import { accountApi } from "../../lib/account";
import { formValues, useFormAction } from "../../lib/use-form-action";
import { toast } from "../../stores/toast";

export default function ForgotPasswordPage() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const { submitting, error, fields, run, validate } = useFormAction();
  const prefill = new URLSearchParams(search).get("email") ?? "";

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = validate(emailOnlyBody, formValues(form), form);
    if (!body) return;
    void run(
      async () => {
        const res = await accountApi.requestPasswordReset(body.email);
        toast({ description: res.message, variant: "success" });
        navigate(`${publicRoutes.resetPassword}?email=${encodeURIComponent(body.email)}`);
      },
      accountMessages.requestPasswordResetFailed,
      { keepBusy: true, form },
    );
  };

  return (
    <AuthLayout
      title="Reset your password"
      description="Enter the email address of your account. We will send you a code to choose a new password."
      footer={
        <Link href={publicRoutes.login} className="font-medium text-accent-text hover:underline">
          Back to sign in
        </Link>
      }
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Reset password request">
        <FormAlert message={error} />
        <TextField label="Email" name="email" type="email" autoComplete="email" required defaultValue={prefill} error={fields.email} />
        <Button type="submit" size="lg" className="mt-1 w-full" busy={submitting}>
          Send reset code
        </Button>
      </form>
    </AuthLayout>
  );
}
