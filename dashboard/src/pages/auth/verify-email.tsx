/** /verify-email: confirm the address with the 6-digit code; resend it (spec section 4). */
import { announceEmailVerified } from "../../lib/account-sync";
import { useRef, type FormEvent } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { accountMessages, auth, emailCodeBody, emailOnlyBody, publicRoutes, serverMessages } from "../../../../contract";
import { AuthLayout } from "../../components/layout/auth-layout";
import { FormAlert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { TextField } from "../../components/ui/field";
import { accountApi } from "../../lib/account";
import { takeReturnTarget } from "../../lib/return-to";
import { formValues, useFormAction } from "../../lib/use-form-action";
import { useAuth } from "../../stores/auth";
import { toast } from "../../stores/toast";

export default function VerifyEmailPage() {
  const user = useAuth((s) => s.user);
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const setUser = useAuth((s) => s.setUser);
  const [, navigate] = useLocation();
  const search = useSearch();
  const formRef = useRef<HTMLFormElement>(null);
  const verify = useFormAction();
  const resend = useFormAction();
  const email = new URLSearchParams(search).get("email") ?? user?.email ?? "";

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const values = formValues(form);
    const body = verify.validate(emailCodeBody, values, form);
    if (!body) return;
    resend.reset();
    void verify.run(
      async () => {
        const verified = await accountApi.confirmEmailVerification(body.email, body.code);
        // Spec section 4: success marks the user as verified locally.
        if (isAuthenticated && user?.id === verified.id) setUser(verified);
        // The dashboard open in other tabs stops asking for it, and says so.
        announceEmailVerified(verified.id);
        toast({ description: serverMessages.emailVerified, variant: "success" });
        navigate(isAuthenticated ? takeReturnTarget(search) : `${publicRoutes.login}?email=${encodeURIComponent(body.email)}`, {
          replace: true,
        });
      },
      accountMessages.verifyEmailFailed,
      { keepBusy: true, form },
    );
  };

  const onResend = () => {
    const values = formRef.current ? formValues(formRef.current) : {};
    const body = resend.validate(emailOnlyBody, { email: values.email }, formRef.current);
    if (!body) return;
    verify.reset();
    void resend.run(async () => {
      const res = await accountApi.requestEmailVerification(body.email);
      toast({ description: res.message, variant: "success" });
    }, accountMessages.sendVerificationFailed);
  };

  const fields = { ...resend.fields, ...verify.fields };
  return (
    <AuthLayout
      title="Verify your email"
      description={`Enter the ${auth.codeLength}-digit code we sent to your email address. It is valid for ${auth.codeTtlMs / 60000} minutes.`}
      footer={
        isAuthenticated ? null : (
          <Link href={publicRoutes.login} className="font-medium text-accent-text hover:underline">
            Back to sign in
          </Link>
        )
      }
    >
      <form ref={formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Verify email">
        <FormAlert message={verify.error ?? resend.error} />
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
        <Button type="submit" size="lg" className="mt-1 w-full" busy={verify.submitting} disabled={resend.submitting}>
          Verify email
        </Button>
        <Button variant="ghost" className="w-full text-muted" busy={resend.submitting} disabled={verify.submitting} onClick={onResend}>
          Resend code
        </Button>
      </form>
    </AuthLayout>
  );
}
