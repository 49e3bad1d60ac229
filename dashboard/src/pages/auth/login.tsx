/** /login: e-mail and password, Google, or a guest session (spec sections 2 and 4). */
import { useRef, type FormEvent } from "react";
import { Link, Redirect, useLocation, useSearch } from "wouter";
import { accountMessages, appMessages, appRoutes, loginBody, publicRoutes } from "../../../../contract";
import { GoogleButton } from "../../components/auth/google-button";
import { AuthLayout } from "../../components/layout/auth-layout";
import { FormAlert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Checkbox, TextField } from "../../components/ui/field";
import { returnTarget, takeReturnTarget } from "../../lib/return-to";
import { formValues, useFormAction } from "../../lib/use-form-action";
import { useAuth } from "../../stores/auth";

export default function LoginPage() {
  const status = useAuth((s) => s.status);
  const login = useAuth((s) => s.login);
  const startGuest = useAuth((s) => s.startGuest);
  const [, navigate] = useLocation();
  const search = useSearch();
  const formRef = useRef<HTMLFormElement>(null);
  const { submitting, error, fields, run, validate, setError } = useFormAction();
  const prefill = new URLSearchParams(search).get("email") ?? "";

  // Already signed in (a bookmark, the back button): go where the user was heading.
  if (status === "authenticated" && !submitting) return <Redirect to={returnTarget(search)} replace />;

  const remember = () => formRef.current?.querySelector<HTMLInputElement>('input[name="remember"]')?.checked ?? true;
  const goBack = () => navigate(takeReturnTarget(search), { replace: true });

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const values = formValues(form);
    const body = validate(loginBody, values, form);
    if (!body) return;
    void run(
      async () => {
        await login({ email: values.email ?? "", password: values.password ?? "" }, values.remember === "on");
        goBack();
      },
      accountMessages.loginFailed,
      { keepBusy: true, form },
    );
  };

  const continueAsGuest = () => {
    startGuest();
    navigate(appRoutes.newChat);
  };

  return (
    <AuthLayout
      title="Sign in to Tala"
      description="Welcome back. Sign in to pick up your chats, projects and assistants."
      footer={
        <>
          New to Tala?{" "}
          <Link href={publicRoutes.register} className="font-medium text-accent-text hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <GoogleButton disabled={submitting} remember={remember} onError={setError} onSignedIn={goBack} />
      <form ref={formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Sign in">
        <FormAlert message={error} />
        <TextField label="Email" name="email" type="email" autoComplete="email" required defaultValue={prefill} error={fields.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={fields.password}
          labelAside={
            <Link href={publicRoutes.forgotPassword} className="text-xs font-medium text-accent-text hover:underline">
              Forgot password?
            </Link>
          }
        />
        <Checkbox label="Remember me" name="remember" defaultChecked />
        <Button type="submit" size="lg" className="mt-1 w-full" busy={submitting}>
          {appMessages.signIn}
        </Button>
      </form>
      {status !== "authenticated" && (
        <Button variant="ghost" size="lg" className="mt-3 w-full text-muted" disabled={submitting} onClick={continueAsGuest}>
          Continue as guest
        </Button>
      )}
    </AuthLayout>
  );
}
