/**
 * Settings → Delete account: says what goes, then a confirmation dialog. A password account
 * confirms with its password; a Google-only account signs in with Google again (the server takes a
 * Google sign-in less than 5 minutes old instead of a password). DELETE /auth/me, then this browser
 * forgets the account and shows the sign-in page with the server's message.
 */
import { useState, type FormEvent } from "react";
import { accountMessages, appMessages, type User } from "../../../../contract";
import { accountApi } from "../../lib/account";
import { formValues, useFormAction } from "../../lib/use-form-action";
import { useAuth } from "../../stores/auth";
import { toast } from "../../stores/toast";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { Modal } from "../ui/dialog";
import { TextField } from "../ui/field";
import { TrashIcon } from "../ui/icons";
import { SettingsSection } from "./section";

const text = appMessages.deleteAccount;

export function DeleteAccountSection({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  return (
    <SettingsSection title={text.title} description={text.description} icon={<TrashIcon size={18} />}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted">{text.consequences}</p>
        <Button variant="danger" className="shrink-0" onClick={() => setOpen(true)}>
          {text.open}
        </Button>
      </div>
      {open && <ConfirmDeleteDialog user={user} onClose={() => setOpen(false)} />}
    </SettingsSection>
  );
}

function ConfirmDeleteDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const reauthenticateWithGoogle = useAuth((s) => s.reauthenticateWithGoogle);
  const forgetDeletedAccount = useAuth((s) => s.forgetDeletedAccount);
  const { submitting, error, fields, run, setError } = useFormAction();
  const formId = "delete-account-form";

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const password = formValues(form).password ?? "";
    if (user.hasPassword && !password) {
      setError(text.passwordPrompt);
      form.querySelector<HTMLInputElement>("input[name=password]")?.focus();
      return;
    }
    void run(
      async () => {
        // A Google-only account proves it is the owner with a fresh Google sign-in: its ID token
        // is the credential this one DELETE goes out with.
        let confirm: { password: string } | { googleIdToken: string } = { password };
        if (!user.hasPassword) {
          const googleIdToken = await reauthenticateWithGoogle();
          if (!googleIdToken) return;
          confirm = { googleIdToken };
        }
        const res = await accountApi.deleteAccount(confirm);
        await forgetDeletedAccount();
        toast({ description: res.message, variant: "success" });
      },
      accountMessages.deleteAccountFailed,
      { form },
    );
  };

  return (
    <Modal
      open
      onOpenChange={(next) => !next && onClose()}
      role="alertdialog"
      size="sm"
      locked={submitting}
      title={text.confirmTitle}
      description={text.consequences}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={submitting}>
            {text.cancel}
          </Button>
          <Button variant="danger" type="submit" form={formId} busy={submitting}>
            {user.hasPassword ? text.confirm : text.confirmWithGoogle}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={text.confirmTitle}>
        <FormAlert message={error} />
        {user.hasPassword ? (
          <>
            <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
            <TextField label="Password" name="password" type="password" autoComplete="current-password" required hint={text.passwordPrompt} error={fields.password} />
          </>
        ) : (
          <p className="text-sm text-muted">{text.googlePrompt}</p>
        )}
      </form>
    </Modal>
  );
}
