/** Settings → Profile: first name, last name, phone, birth date → PATCH /auth/me. */
import type { FormEvent } from "react";
import { accountMessages, appMessages, updateProfileBody, type User } from "../../../../contract";
import { accountApi } from "../../lib/account";
import { formValues, useFormAction } from "../../lib/use-form-action";
import { useAuth } from "../../stores/auth";
import { toast } from "../../stores/toast";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { UserIcon } from "../ui/icons";
import { SettingsSection } from "./section";

export function ProfileSection({ user }: { user: User }) {
  const setUser = useAuth((s) => s.setUser);
  const { submitting, error, fields, run, validate } = useFormAction();

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = validate(updateProfileBody, formValues(form), form);
    if (!body) return;
    void run(
      async () => {
        setUser(await accountApi.updateProfile(body));
        toast({ description: appMessages.profileSaved, variant: "success" });
      },
      accountMessages.updateProfileFailed,
      { form },
    );
  };

  return (
    <SettingsSection title="Profile" description="How Tala greets you, and your contact details." icon={<UserIcon size={18} />}>
      {/* key: a saved profile re-mounts the form with the server's values. */}
      <form key={`${user.firstName}|${user.lastName}|${user.phone}|${user.birthDate}`} noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Profile">
        <FormAlert message={error} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField label="First name" name="firstName" autoComplete="given-name" required defaultValue={user.firstName} error={fields.firstName} />
          <TextField label="Last name" name="lastName" autoComplete="family-name" defaultValue={user.lastName} error={fields.lastName} />
          <TextField label="Phone" name="phone" type="tel" autoComplete="tel" defaultValue={user.phone} error={fields.phone} />
          <TextField label="Birth date" name="birthDate" type="date" autoComplete="bday" defaultValue={user.birthDate} error={fields.birthDate} />
        </div>
        <div className="flex justify-end">
          <Button type="submit" busy={submitting}>
            Save profile
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
