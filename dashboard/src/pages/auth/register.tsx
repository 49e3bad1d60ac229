/** /register: create an account, then verify the e-mail address (spec sections 2, 3 and 4). */
import { useRef, type FormEvent } from "react";
import { Link, Redirect, useLocation, useSearch } from "wouter";
import { accountMessages, auth, publicRoutes, registerBody } from "../../../../contract";
import { GoogleButton } from "../../components/auth/google-button";
import { AuthLayout } from "../../components/layout/auth-layout";
import { FormAlert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { TextField } from "../../components/ui/field";
import { returnTarget, takeReturnTarget } from "../../lib/return-to";
import { formValues, useFormAction } from "../../lib/use-form-action";
import { useAuth } from "../../stores/auth";

export default function RegisterPage() {
  const status = useAuth((s) => s.status);
  const register = useAuth((s) => s.register);
  const [, navigate] = useLocation();
  const search = useSearch();
  const formRef = useRef<HTMLFormElement>(null);
  const { submitting, error, fields, run, validate, setError } = useFormAction();

  if (status === "authenticated" && !submitting) return <Redirect to={returnTarget(search)} replace />;

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const values = formValues(form);
    const body = validate(registerBody, values, form);
    if (!body) return;
    void run(
      async () => {
        const user = await register({
          email: values.email ?? "",
          password: values.password ?? "",
          firstName: values.firstName ?? "",
          lastName: values.lastName ?? "",
          phone: values.phone ?? "",
          birthDate: values.birthDate ?? "",
        });
        navigate(`${publicRoutes.verifyEmail}?email=${encodeURIComponent(user.email)}`, { replace: true });
      },
      accountMessages.registrationFailed,
      { keepBusy: true, form },
    );
  };

  return (
    <AuthLayout
      title="Create your account"
      description="Free to start. Chat with Tala, keep your history and build assistants for your website."
      footer={
        <>
          Already have an account?{" "}
          <Link href={publicRoutes.login} className="font-medium text-accent-text hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <GoogleButton
        disabled={submitting}
        remember={() => true}
        onError={setError}
        onSignedIn={() => navigate(takeReturnTarget(search), { replace: true })}
      />
      <form ref={formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Create account">
        <FormAlert message={error} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField label="First name" name="firstName" autoComplete="given-name" required error={fields.firstName} />
          <TextField label="Last name" name="lastName" autoComplete="family-name" error={fields.lastName} />
        </div>
        <TextField label="Email" name="email" type="email" autoComplete="email" required error={fields.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={auth.passwordMinLength}
          error={fields.password}
          hint={`At least ${auth.passwordMinLength} characters.`}
        />
        <TextField label="Phone" name="phone" type="tel" autoComplete="tel" optional error={fields.phone} />
        <TextField label="Birth date" name="birthDate" type="date" autoComplete="bday" optional error={fields.birthDate} />
        <Button type="submit" size="lg" className="mt-1 w-full" busy={submitting}>
          Create account
        </Button>
      </form>
    </AuthLayout>
  );
}
