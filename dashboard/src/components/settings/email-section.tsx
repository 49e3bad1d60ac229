/**
 * Settings → Email: the current address and whether it is verified; changing it takes the current
 * password, then the code sent to the new address (spec section 4).
 */
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { accountMessages, appMessages, auth, changeEmailRequestBody, emailCodeBody, publicRoutes, serverMessages, type User } from "../../../../contract";
import { accountApi } from "../../lib/account";
import { formValues, useFormAction } from "../../lib/use-form-action";
import { useAuth } from "../../stores/auth";
import { toast } from "../../stores/toast";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { AlertIcon, CheckIcon, MailIcon } from "../ui/icons";
import { SettingsSection } from "./section";

type Step = { kind: "idle" } | { kind: "request" } | { kind: "confirm"; newEmail: string };

export function EmailSection({ user }: { user: User }) {
  const setUser = useAuth((s) => s.setUser);
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const { submitting, error, fields, run, validate, reset } = useFormAction();

  const onRequest = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = validate(changeEmailRequestBody, formValues(form), form);
    if (!body) return;
    void run(
      async () => {
        const res = await accountApi.requestEmailChange(body.newEmail, body.password);
        toast({ description: res.message, variant: "success" });
        setStep({ kind: "confirm", newEmail: body.newEmail });
      },
      accountMessages.changeEmailFailed,
      { form },
    );
  };

  const onConfirm = (e: FormEvent<HTMLFormElement>) => {
    if (step.kind !== "confirm") return;
    e.preventDefault();
    const form = e.currentTarget;
    const body = validate(emailCodeBody, { email: step.newEmail, code: formValues(form).code }, form);
    if (!body) return;
    void run(
      async () => {
        setUser(await accountApi.confirmEmailChange(body.email, body.code));
        toast({ description: serverMessages.emailChanged, variant: "success" });
        setStep({ kind: "idle" });
      },
      accountMessages.changeEmailFailed,
      { form },
    );
  };

  const cancel = () => {
    reset();
    setStep({ kind: "idle" });
  };

  return (
    <SettingsSection title="Email" description="The address you sign in with and where Tala sends codes." icon={<MailIcon size={18} />}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <p className="text-xs text-muted">Current email</p>
          <p className="truncate text-sm font-medium text-fg">{user.email}</p>
        </div>
        {user.isEmailVerified ? (
          <span className="inline-flex w-fit items-center gap-1 rounded-full bg-success-soft px-2.5 py-1 text-xs font-medium text-success">
            <CheckIcon size={14} /> Verified
          </span>
        ) : (
          <span className="inline-flex w-fit items-center gap-1.5 rounded-full bg-warning-soft px-2.5 py-1 text-xs font-medium text-warning-fg">
            <AlertIcon size={14} /> Not verified
            <Link href={`${publicRoutes.verifyEmail}?email=${encodeURIComponent(user.email)}`} className="underline underline-offset-2">
              {appMessages.verifyEmailBannerAction}
            </Link>
          </span>
        )}
      </div>

      <div className="mt-5 border-t border-line pt-5">
        {!user.hasPassword ? (
          <p className="text-sm text-muted">
            {appMessages.federatedPasswordNote}{" "}
            <Link href={`${publicRoutes.forgotPassword}?email=${encodeURIComponent(user.email)}`} className="font-medium text-accent-text hover:underline">
              Forgot password
            </Link>
          </p>
        ) : step.kind === "idle" ? (
          <Button variant="secondary" onClick={() => setStep({ kind: "request" })}>
            Change email
          </Button>
        ) : step.kind === "request" ? (
          <form key="request" noValidate onSubmit={onRequest} className="flex flex-col gap-4" aria-label="Change email">
            <FormAlert message={error} />
            <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
            <TextField label="New email" name="newEmail" type="email" autoComplete="email" required error={fields.newEmail} />
            <TextField label="Current password" name="password" type="password" autoComplete="current-password" required error={fields.password} />
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="ghost" onClick={cancel} disabled={submitting}>
                Cancel
              </Button>
              <Button type="submit" busy={submitting}>
                Send code
              </Button>
            </div>
          </form>
        ) : (
          <form key="confirm" noValidate onSubmit={onConfirm} className="flex flex-col gap-4" aria-label="Confirm new email">
            <FormAlert message={error} />
            <p className="text-sm text-muted">
              Enter the {auth.codeLength}-digit code we sent to <span className="font-medium text-fg">{step.newEmail}</span>.
            </p>
            <TextField
              label="Verification code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={auth.codeLength}
              required
              error={fields.code ?? fields.email}
              className="[&_input]:font-mono [&_input]:tracking-[0.3em]"
            />
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="ghost" onClick={cancel} disabled={submitting}>
                Cancel
              </Button>
              <Button type="submit" busy={submitting}>
                Confirm new email
              </Button>
            </div>
          </form>
        )}
      </div>
    </SettingsSection>
  );
}
